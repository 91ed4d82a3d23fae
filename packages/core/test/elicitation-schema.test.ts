import { describe, expect, it } from 'vitest';
import {
  elicitationSchemaPointer,
  isValidElicitationSchema,
  validateElicitationSchema,
  type ElicitationSchemaProblem,
} from '../src/index.js';

function form(properties: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown {
  return { type: 'object', properties, ...extra };
}

/** Problems as `pointer keyword` pairs, the part tests assert on. */
function summary(problems: readonly ElicitationSchemaProblem[]): string[] {
  return problems.map((problem) => `${elicitationSchemaPointer(problem.path)} ${problem.keyword}`);
}

describe('validateElicitationSchema accepts the subset', () => {
  it.each<[string, unknown]>([
    ['an empty form', form({})],
    [
      'every string option',
      form(
        {
          email: { type: 'string', title: 'Email', description: 'Work email', format: 'email' },
          site: { type: 'string', format: 'uri', default: 'https://example.com' },
          day: { type: 'string', format: 'date' },
          at: { type: 'string', format: 'date-time' },
          nick: { type: 'string', minLength: 2, maxLength: 20, default: 'ada' },
        },
        { required: ['email'], $schema: 'https://json-schema.org/draft/2020-12/schema' },
      ),
    ],
    [
      'numbers, integers and booleans with defaults',
      form({
        ratio: { type: 'number', minimum: 0, maximum: 1.5, default: 0.5 },
        count: { type: 'integer', minimum: 1, maximum: 8, default: 2 },
        ok: { type: 'boolean', title: 'Delete', default: false },
      }),
    ],
    [
      'single-select enums, untitled, titled and legacy',
      form({
        size: { type: 'string', enum: ['s', 'm', 'l'], default: 'm' },
        tier: {
          type: 'string',
          oneOf: [
            { const: 'free', title: 'Free' },
            { const: 'pro', title: 'Pro' },
          ],
          default: 'pro',
        },
        legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Option A', 'Option B'] },
      }),
    ],
    [
      'multi-selects, untitled and titled',
      form({
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, minItems: 1, default: ['x'] },
        teams: {
          type: 'array',
          items: { anyOf: [{ const: 'a', title: 'Team A' }] },
          maxItems: 1,
        },
      }),
    ],
    [
      'the spec guide example',
      {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
      },
    ],
  ])('%s', (_name, schema) => {
    expect(validateElicitationSchema(schema)).toEqual([]);
    expect(isValidElicitationSchema(schema)).toBe(true);
  });
});

describe('validateElicitationSchema reports what leaves the subset', () => {
  it.each<[string, unknown, string[]]>([
    ['a non-object schema', 'nope', [' type']],
    ['a root that is not an object type', { type: 'array', properties: {} }, ['/type type']],
    ['missing properties', { type: 'object' }, ['/properties properties']],
    [
      'a nested object',
      form({ address: { type: 'object', properties: { street: { type: 'string' } } } }),
      ['/properties/address/type type'],
    ],
    [
      'an array of objects',
      form({ people: { type: 'array', items: { type: 'object', properties: {} } } }),
      ['/properties/people/items/type type'],
    ],
    ['a property without a type', form({ x: { title: 'X' } }), ['/properties/x/type type']],
    ['a property that is not an object', form({ x: true }), ['/properties/x properties']],
    [
      'an unsupported format',
      form({ x: { type: 'string', format: 'ipv4' } }),
      ['/properties/x/format format'],
    ],
    [
      'a keyword outside the subset',
      form({ x: { type: 'string', pattern: '^a' } }),
      ['/properties/x/pattern pattern'],
    ],
    [
      'an unknown root keyword',
      form({}, { additionalProperties: false }),
      ['/additionalProperties additionalProperties'],
    ],
    [
      'inverted length bounds',
      form({ x: { type: 'string', minLength: 5, maxLength: 2 } }),
      ['/properties/x/minLength minLength'],
    ],
    [
      'a negative length',
      form({ x: { type: 'string', minLength: -1 } }),
      ['/properties/x/minLength minLength'],
    ],
    [
      'inverted numeric bounds',
      form({ x: { type: 'number', minimum: 3, maximum: 1 } }),
      ['/properties/x/minimum minimum'],
    ],
    [
      'a fractional integer default',
      form({ x: { type: 'integer', default: 1.5 } }),
      ['/properties/x/default default'],
    ],
    [
      'a default outside the bounds',
      form({ x: { type: 'number', minimum: 0, maximum: 1, default: 2 } }),
      ['/properties/x/default default'],
    ],
    [
      'a string default of the wrong type',
      form({ x: { type: 'string', default: 3 } }),
      ['/properties/x/default default'],
    ],
    [
      'a boolean default of the wrong type',
      form({ x: { type: 'boolean', default: 'yes' } }),
      ['/properties/x/default default'],
    ],
    ['an empty enum', form({ x: { type: 'string', enum: [] } }), ['/properties/x/enum enum']],
    ['a repeated enum value', form({ x: { type: 'string', enum: ['a', 'a'] } }), ['/properties/x/enum enum']],
    [
      'a default not in the enum',
      form({ x: { type: 'string', enum: ['a'], default: 'b' } }),
      ['/properties/x/default default'],
    ],
    [
      'enumNames of the wrong length',
      form({ x: { type: 'string', enum: ['a', 'b'], enumNames: ['A'] } }),
      ['/properties/x/enumNames enumNames'],
    ],
    [
      'a oneOf option without a title',
      form({ x: { type: 'string', oneOf: [{ const: 'a' }] } }),
      ['/properties/x/oneOf/0 oneOf'],
    ],
    [
      'a oneOf option with extra keys',
      form({ x: { type: 'string', oneOf: [{ const: 'a', title: 'A', description: 'd' }] } }),
      ['/properties/x/oneOf/0 oneOf'],
    ],
    [
      'a multi-select without options',
      form({ x: { type: 'array', items: { type: 'string' } } }),
      ['/properties/x/items items'],
    ],
    [
      'a multi-select default outside the options',
      form({ x: { type: 'array', items: { type: 'string', enum: ['a'] }, default: ['b'] } }),
      ['/properties/x/default default'],
    ],
    [
      'a required name that is not a property',
      form({ a: { type: 'string' } }, { required: ['a', 'b'] }),
      ['/required/1 required'],
    ],
    ['required that is not a list of names', form({}, { required: 'a' }), ['/required required']],
    ['a non-string title', form({ x: { type: 'string', title: 1 } }), ['/properties/x/title title']],
  ])('%s', (_name, schema, expected) => {
    expect(summary(validateElicitationSchema(schema))).toEqual(expected);
    expect(isValidElicitationSchema(schema)).toBe(false);
  });

  it('reports every problem, each with a message', () => {
    const problems = validateElicitationSchema(
      form(
        {
          a: { type: 'object' },
          b: { type: 'string', format: 'phone', minLength: 'x' },
        },
        { required: ['c'] },
      ),
    );
    expect(summary(problems)).toEqual([
      '/properties/a/type type',
      '/properties/b/minLength minLength',
      '/properties/b/format format',
      '/required/0 required',
    ]);
    for (const problem of problems) expect(problem.message).toMatch(/\S.*\.$/);
  });

  it('escapes pointer segments', () => {
    expect(elicitationSchemaPointer(['properties', 'a/b~c', 0])).toBe('/properties/a~1b~0c/0');
  });
});
