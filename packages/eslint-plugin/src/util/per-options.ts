/**
 * Derives a value from a rule's options once per distinct options rather than once per file.
 * ESLint hands every file linted under a config the same options object when the rule is enabled
 * without options, but merges written options (`['error', { … }]`) with the defaults into a new
 * object for every file; those are recognised by their content. Building sets, regular expressions
 * and classifiers from the options on each file was a measurable part of the rules' cost.
 */
export function perOptions<O extends object, V>(derive: (options: O) => V): (options: O) => V {
  const byObject = new WeakMap<O, V>();
  // Options are JSON (ESLint validates them against the rule's schema); a config holds few of them.
  const byContent = new Map<string, V>();
  return (options) => {
    let value = byObject.get(options);
    if (value === undefined) {
      const content = JSON.stringify(options);
      value = byContent.get(content);
      if (value === undefined) {
        value = derive(options);
        byContent.set(content, value);
      }
      byObject.set(options, value);
    }
    return value;
  };
}
