/**
 * The restricted JSON Schema subset a form-mode `elicitation/create` may use as `requestedSchema`:
 * a flat object whose properties are strings (minLength, maxLength, format email | uri | date |
 * date-time), numbers or integers (minimum, maximum), booleans, single-select enums (`enum`, or
 * `oneOf` of `const` + `title`), multi-select arrays of enum items, each with an optional `default`.
 * Nested objects and arrays of objects are excluded on purpose, so clients can render any form.
 */

/** One way a schema leaves the subset. */
export interface ElicitationSchemaProblem {
  /** Where, as segments from the schema root, e.g. `['properties', 'email', 'format']`. */
  readonly path: readonly (string | number)[];
  /** The JSON Schema keyword at fault, e.g. `format`; `type` for a wrong or missing type. */
  readonly keyword: string;
  /** One sentence saying what is wrong and what the subset allows. */
  readonly message: string;
}

export const ELICITATION_STRING_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

type Path = readonly (string | number)[];
type Json = Record<string, unknown>;

const ANNOTATIONS = ['title', 'description'] as const;
const ROOT_KEYWORDS = new Set(['$schema', 'type', 'properties', 'required']);
const KEYWORDS_BY_SHAPE = {
  string: new Set([...ANNOTATIONS, 'type', 'minLength', 'maxLength', 'format', 'default']),
  enum: new Set([...ANNOTATIONS, 'type', 'enum', 'enumNames', 'default']),
  oneOf: new Set([...ANNOTATIONS, 'type', 'oneOf', 'default']),
  number: new Set([...ANNOTATIONS, 'type', 'minimum', 'maximum', 'default']),
  boolean: new Set([...ANNOTATIONS, 'type', 'default']),
  array: new Set([...ANNOTATIONS, 'type', 'items', 'minItems', 'maxItems', 'default']),
};

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : JSON.stringify(value);
}

class ProblemList {
  readonly problems: ElicitationSchemaProblem[] = [];

  add(path: Path, keyword: string, message: string): void {
    this.problems.push({ path: [...path], keyword, message });
  }

  unknownKeywords(schema: Json, path: Path, allowed: ReadonlySet<string>, what: string): void {
    for (const keyword of Object.keys(schema)) {
      if (!allowed.has(keyword)) {
        this.add(
          [...path, keyword],
          keyword,
          `"${keyword}" is not part of the restricted elicitation schema for ${what}; allowed: ${[...allowed].join(', ')}.`,
        );
      }
    }
  }

  annotations(schema: Json, path: Path): void {
    for (const keyword of ANNOTATIONS) {
      if (keyword in schema && typeof schema[keyword] !== 'string') {
        this.add([...path, keyword], keyword, `"${keyword}" must be a string.`);
      }
    }
  }

  /** Checks an optional non-negative integer bound and returns it when usable. */
  count(schema: Json, path: Path, keyword: string): number | undefined {
    if (!(keyword in schema)) return undefined;
    const value = schema[keyword];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
    this.add(
      [...path, keyword],
      keyword,
      `"${keyword}" must be a non-negative integer, not ${describe(value)}.`,
    );
    return undefined;
  }

  /** Checks an optional finite numeric bound and returns it when usable. */
  bound(schema: Json, path: Path, keyword: string): number | undefined {
    if (!(keyword in schema)) return undefined;
    const value = schema[keyword];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    this.add([...path, keyword], keyword, `"${keyword}" must be a finite number, not ${describe(value)}.`);
    return undefined;
  }

  order(path: Path, lowKeyword: string, low: number | undefined, highKeyword: string, high?: number): void {
    if (low !== undefined && high !== undefined && low > high) {
      this.add(
        [...path, lowKeyword],
        lowKeyword,
        `"${lowKeyword}" (${low}) exceeds "${highKeyword}" (${high}).`,
      );
    }
  }

  /** Checks a non-empty list of distinct strings, e.g. `enum`; returns it when usable. */
  stringList(schema: Json, path: Path, keyword: string): string[] | undefined {
    const value = schema[keyword];
    if (!Array.isArray(value) || value.length === 0 || !value.every((item) => typeof item === 'string')) {
      this.add([...path, keyword], keyword, `"${keyword}" must be a non-empty array of strings.`);
      return undefined;
    }
    const items = value;
    if (new Set(items).size !== items.length) {
      this.add([...path, keyword], keyword, `"${keyword}" must not repeat a value.`);
    }
    return items;
  }

  /** Checks a non-empty list of `{ const, title }` options; returns the consts when usable. */
  titledOptions(schema: Json, path: Path, keyword: string): string[] | undefined {
    const value = schema[keyword];
    if (!Array.isArray(value) || value.length === 0) {
      this.add(
        [...path, keyword],
        keyword,
        `"${keyword}" must be a non-empty array of { const, title } options.`,
      );
      return undefined;
    }
    const consts: string[] = [];
    value.forEach((option: unknown, index) => {
      const at = [...path, keyword, index];
      if (!isObject(option) || typeof option.const !== 'string' || typeof option.title !== 'string') {
        this.add(
          at,
          keyword,
          `Each "${keyword}" option must be an object with a string "const" and a string "title".`,
        );
        return;
      }
      const extra = Object.keys(option).filter((key) => key !== 'const' && key !== 'title');
      if (extra.length > 0) {
        this.add(
          at,
          keyword,
          `A "${keyword}" option has only "const" and "title"; remove ${extra.join(', ')}.`,
        );
      }
      consts.push(option.const);
    });
    if (new Set(consts).size !== consts.length) {
      this.add([...path, keyword], keyword, `"${keyword}" must not repeat a const value.`);
    }
    return consts;
  }
}

function checkStringDefault(
  list: ProblemList,
  schema: Json,
  path: Path,
  allowed: readonly string[] | undefined,
): void {
  if (!('default' in schema)) return;
  const value = schema.default;
  if (typeof value !== 'string') {
    list.add([...path, 'default'], 'default', `"default" must be a string, not ${describe(value)}.`);
  } else if (allowed && !allowed.includes(value)) {
    list.add(
      [...path, 'default'],
      'default',
      `"default" ${JSON.stringify(value)} is not one of the options.`,
    );
  }
}

function checkString(list: ProblemList, schema: Json, path: Path): void {
  list.unknownKeywords(schema, path, KEYWORDS_BY_SHAPE.string, 'a string field');
  const minLength = list.count(schema, path, 'minLength');
  const maxLength = list.count(schema, path, 'maxLength');
  list.order(path, 'minLength', minLength, 'maxLength', maxLength);
  if ('format' in schema && !(ELICITATION_STRING_FORMATS as readonly unknown[]).includes(schema.format)) {
    list.add(
      [...path, 'format'],
      'format',
      `"format" must be one of ${ELICITATION_STRING_FORMATS.join(', ')}, not ${describe(schema.format)}.`,
    );
  }
  checkStringDefault(list, schema, path, undefined);
  if (typeof schema.default === 'string') {
    const length = [...schema.default].length;
    if ((minLength !== undefined && length < minLength) || (maxLength !== undefined && length > maxLength)) {
      list.add([...path, 'default'], 'default', '"default" does not satisfy minLength/maxLength.');
    }
  }
}

function checkEnum(list: ProblemList, schema: Json, path: Path): void {
  list.unknownKeywords(schema, path, KEYWORDS_BY_SHAPE.enum, 'a single-select enum');
  const options = list.stringList(schema, path, 'enum');
  if ('enumNames' in schema) {
    const names = schema.enumNames;
    if (
      !Array.isArray(names) ||
      !names.every((name) => typeof name === 'string') ||
      (options && names.length !== options.length)
    ) {
      list.add(
        [...path, 'enumNames'],
        'enumNames',
        '"enumNames" must be an array of strings as long as "enum" (better: use oneOf with const and title).',
      );
    }
  }
  checkStringDefault(list, schema, path, options);
}

function checkOneOf(list: ProblemList, schema: Json, path: Path): void {
  list.unknownKeywords(schema, path, KEYWORDS_BY_SHAPE.oneOf, 'a titled single-select enum');
  checkStringDefault(list, schema, path, list.titledOptions(schema, path, 'oneOf'));
}

function checkNumber(list: ProblemList, schema: Json, path: Path, integer: boolean): void {
  list.unknownKeywords(schema, path, KEYWORDS_BY_SHAPE.number, `an ${integer ? 'integer' : 'number'} field`);
  const minimum = list.bound(schema, path, 'minimum');
  const maximum = list.bound(schema, path, 'maximum');
  list.order(path, 'minimum', minimum, 'maximum', maximum);
  if (!('default' in schema)) return;
  const value = schema.default;
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    list.add(
      [...path, 'default'],
      'default',
      `"default" must be ${integer ? 'an integer' : 'a finite number'}, not ${describe(value)}.`,
    );
  } else if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum)) {
    list.add([...path, 'default'], 'default', '"default" lies outside minimum/maximum.');
  }
}

function checkBoolean(list: ProblemList, schema: Json, path: Path): void {
  list.unknownKeywords(schema, path, KEYWORDS_BY_SHAPE.boolean, 'a boolean field');
  if ('default' in schema && typeof schema.default !== 'boolean') {
    list.add(
      [...path, 'default'],
      'default',
      `"default" must be a boolean, not ${describe(schema.default)}.`,
    );
  }
}

/** The options of a multi-select's `items`, or undefined when `items` is unusable. */
function multiSelectOptions(list: ProblemList, items: unknown, path: Path): string[] | undefined {
  const at = [...path, 'items'];
  if (!isObject(items)) {
    list.add(at, 'items', '"items" must be an object listing the options with enum or anyOf.');
    return undefined;
  }
  if ('anyOf' in items) {
    list.unknownKeywords(items, at, new Set(['anyOf']), 'titled multi-select items');
    return list.titledOptions(items, at, 'anyOf');
  }
  if (items.type === 'object' || items.type === 'array' || 'properties' in items) {
    list.add(
      [...at, 'type'],
      'type',
      'Arrays of objects or of arrays are not allowed; a multi-select lists string options.',
    );
    return undefined;
  }
  if (items.type !== 'string' || !('enum' in items)) {
    list.add(
      at,
      'items',
      '"items" must be { type: "string", enum: [...] } or { anyOf: [{ const, title }] }.',
    );
    return undefined;
  }
  list.unknownKeywords(items, at, new Set(['type', 'enum']), 'multi-select items');
  return list.stringList(items, at, 'enum');
}

function checkMultiSelect(list: ProblemList, schema: Json, path: Path): void {
  list.unknownKeywords(schema, path, KEYWORDS_BY_SHAPE.array, 'a multi-select');
  const options = multiSelectOptions(list, schema.items, path);
  const minItems = list.count(schema, path, 'minItems');
  const maxItems = list.count(schema, path, 'maxItems');
  list.order(path, 'minItems', minItems, 'maxItems', maxItems);
  if (!('default' in schema)) return;
  const value = schema.default;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    list.add(
      [...path, 'default'],
      'default',
      `"default" must be an array of strings, not ${describe(value)}.`,
    );
    return;
  }
  const chosen = value;
  if (options && chosen.some((item) => !options.includes(item))) {
    list.add([...path, 'default'], 'default', '"default" contains a value that is not one of the options.');
  }
  if (
    (minItems !== undefined && chosen.length < minItems) ||
    (maxItems !== undefined && chosen.length > maxItems)
  ) {
    list.add([...path, 'default'], 'default', '"default" does not satisfy minItems/maxItems.');
  }
}

function checkProperty(list: ProblemList, schema: unknown, path: Path): void {
  if (!isObject(schema)) {
    list.add(path, 'properties', `A property schema must be an object, not ${describe(schema)}.`);
    return;
  }
  list.annotations(schema, path);
  switch (schema.type) {
    case 'string':
      if ('oneOf' in schema) checkOneOf(list, schema, path);
      else if ('enum' in schema) checkEnum(list, schema, path);
      else checkString(list, schema, path);
      return;
    case 'number':
    case 'integer':
      checkNumber(list, schema, path, schema.type === 'integer');
      return;
    case 'boolean':
      checkBoolean(list, schema, path);
      return;
    case 'array':
      checkMultiSelect(list, schema, path);
      return;
    case 'object':
      list.add(
        [...path, 'type'],
        'type',
        'Nested objects are not allowed; the form must be a flat object of primitive fields.',
      );
      return;
    default:
      list.add(
        [...path, 'type'],
        'type',
        `"type" must be string, number, integer, boolean or array (multi-select), not ${describe(schema.type)}.`,
      );
  }
}

/**
 * Checks a form-mode `requestedSchema` against the restricted subset. Returns every problem found,
 * in document order; an empty list means the schema is valid. Pure: no I/O, no exceptions.
 */
export function validateElicitationSchema(schema: unknown): ElicitationSchemaProblem[] {
  const list = new ProblemList();
  if (!isObject(schema)) {
    list.add([], 'type', `requestedSchema must be an object schema, not ${describe(schema)}.`);
    return list.problems;
  }
  list.unknownKeywords(schema, [], ROOT_KEYWORDS, 'the form root');
  if (schema.type !== 'object') {
    list.add(['type'], 'type', `requestedSchema must have "type": "object", not ${describe(schema.type)}.`);
  }
  if ('$schema' in schema && typeof schema.$schema !== 'string') {
    list.add(['$schema'], '$schema', '"$schema" must be a string.');
  }

  const properties = schema.properties;
  if (!isObject(properties)) {
    list.add(
      ['properties'],
      'properties',
      'requestedSchema must have a "properties" object naming the fields.',
    );
  } else {
    for (const [name, property] of Object.entries(properties)) {
      checkProperty(list, property, ['properties', name]);
    }
  }

  if ('required' in schema) {
    const required = schema.required;
    if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
      list.add(['required'], 'required', '"required" must be an array of property names.');
    } else {
      const names = required;
      if (new Set(names).size !== names.length) {
        list.add(['required'], 'required', '"required" must not name a property twice.');
      }
      names.forEach((name, index) => {
        if (isObject(properties) && !Object.hasOwn(properties, name)) {
          list.add(
            ['required', index],
            'required',
            `"required" names "${name}", which is not in "properties".`,
          );
        }
      });
    }
  }
  return list.problems;
}

/** Whether a schema is inside the subset. */
export function isValidElicitationSchema(schema: unknown): boolean {
  return validateElicitationSchema(schema).length === 0;
}

/** Renders a problem path as a JSON Pointer, e.g. `/properties/email/format`. */
export function elicitationSchemaPointer(path: readonly (string | number)[]): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
