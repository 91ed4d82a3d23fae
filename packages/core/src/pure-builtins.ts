/**
 * JavaScript built-ins known to be pure: their result depends only on their arguments, and they
 * change nothing the caller can see. A migrated handler re-runs from the top on every round, so
 * the codemod treats code before a question as a side effect unless it can prove it pure, and
 * these lists are all it takes on trust. Anything not listed is presumed to have effects: keep the
 * lists short and certain. `Math.random`, `Date.now` and `new Date()` are absent on purpose: their
 * value differs per call.
 */

/** Global functions, called by their bare name: `String(x)`, `encodeURIComponent(x)`. */
export const PURE_GLOBAL_FUNCTIONS: readonly string[] = [
  'String',
  'Number',
  'Boolean',
  'BigInt',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'encodeURIComponent',
  'decodeURIComponent',
  'encodeURI',
  'decodeURI',
  'structuredClone',
];

/** Namespaces all of whose functions are pure, but those in {@link IMPURE_NAMESPACE_MEMBERS}. */
export const PURE_NAMESPACES: readonly string[] = ['Math'];

/** Members of {@link PURE_NAMESPACES} that are not pure. */
export const IMPURE_NAMESPACE_MEMBERS: readonly string[] = ['Math.random'];

/**
 * Static functions, by dotted name. The `Promise` combinators only wait for what they are given,
 * which is checked on its own.
 */
export const PURE_STATIC_FUNCTIONS: readonly string[] = [
  'JSON.stringify',
  'JSON.parse',
  'Object.keys',
  'Object.values',
  'Object.entries',
  'Object.fromEntries',
  'Object.hasOwn',
  'Object.is',
  'Array.isArray',
  'Array.from',
  'Array.of',
  'Number.isInteger',
  'Number.isSafeInteger',
  'Number.isFinite',
  'Number.isNaN',
  'Number.parseInt',
  'Number.parseFloat',
  'String.fromCharCode',
  'String.fromCodePoint',
  'String.raw',
  'Promise.all',
  'Promise.allSettled',
  'Promise.race',
  'Promise.any',
  'Promise.resolve',
];

/** Methods of strings that return a new value and leave the string as it is. */
export const PURE_STRING_METHODS: readonly string[] = [
  'at',
  'charAt',
  'charCodeAt',
  'codePointAt',
  'concat',
  'endsWith',
  'includes',
  'indexOf',
  'lastIndexOf',
  'localeCompare',
  'match',
  'matchAll',
  'normalize',
  'padEnd',
  'padStart',
  'repeat',
  'replace',
  'replaceAll',
  'search',
  'slice',
  'split',
  'startsWith',
  'substring',
  'toLowerCase',
  'toUpperCase',
  'toLocaleLowerCase',
  'toLocaleUpperCase',
  'toString',
  'trim',
  'trimEnd',
  'trimStart',
  'valueOf',
];

/**
 * Methods of arrays that return a new value and leave the array as it is (not `push`, `sort`,
 * `splice`, …). Callbacks they take are checked on their own.
 */
export const PURE_ARRAY_METHODS: readonly string[] = [
  'at',
  'concat',
  'entries',
  'every',
  'filter',
  'find',
  'findIndex',
  'findLast',
  'findLastIndex',
  'flat',
  'flatMap',
  'includes',
  'indexOf',
  'join',
  'keys',
  'lastIndexOf',
  'map',
  'reduce',
  'reduceRight',
  'slice',
  'some',
  'toReversed',
  'toSorted',
  'toSpliced',
  'values',
  'with',
];

/** Methods of numbers and booleans. */
export const PURE_NUMBER_METHODS: readonly string[] = [
  'toFixed',
  'toPrecision',
  'toExponential',
  'toString',
  'valueOf',
];

/** Methods of maps and sets that read them (`Map`, `Set` and their read-only forms). */
export const PURE_COLLECTION_METHODS: readonly string[] = ['get', 'has', 'keys', 'values', 'entries'];

/** Constructors whose instance depends only on the arguments (`new Date()` needs one to qualify). */
export const PURE_CONSTRUCTORS: readonly string[] = [
  'URL',
  'URLSearchParams',
  'Map',
  'Set',
  'Error',
  'TypeError',
  'RangeError',
  'RegExp',
];

/** Constructors that are pure only given an argument: `new Date(iso)`, not `new Date()`. */
export const PURE_CONSTRUCTORS_WITH_ARGUMENTS: readonly string[] = ['Date'];
