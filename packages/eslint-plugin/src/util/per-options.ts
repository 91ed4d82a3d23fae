/**
 * Derives a value from a rule's options once per options object rather than once per file. ESLint
 * hands every file linted under the same config the same options object, and building sets and
 * regular expressions from it on each file was a measurable part of the rules' cost.
 */
export function perOptions<O extends object, V>(derive: (options: O) => V): (options: O) => V {
  const derived = new WeakMap<O, V>();
  return (options) => {
    let value = derived.get(options);
    if (value === undefined) {
      value = derive(options);
      derived.set(options, value);
    }
    return value;
  };
}
