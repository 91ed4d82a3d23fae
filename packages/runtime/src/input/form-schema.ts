/**
 * Types for form-mode `requestedSchema` (the restricted subset) and the content a client sends back
 * for it, inferred from the schema literal so `answer.content.email` is typed.
 */

export interface StringField {
  readonly type: 'string';
  readonly title?: string;
  readonly description?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly format?: 'email' | 'uri' | 'date' | 'date-time';
  readonly default?: string;
}

export interface EnumField {
  readonly type: 'string';
  readonly title?: string;
  readonly description?: string;
  readonly enum: readonly string[];
  /** @deprecated Use {@link TitledEnumField}. */
  readonly enumNames?: readonly string[];
  readonly default?: string;
}

export interface TitledOption {
  readonly const: string;
  readonly title: string;
}

export interface TitledEnumField {
  readonly type: 'string';
  readonly title?: string;
  readonly description?: string;
  readonly oneOf: readonly TitledOption[];
  readonly default?: string;
}

export interface NumberField {
  readonly type: 'number' | 'integer';
  readonly title?: string;
  readonly description?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: number;
}

export interface BooleanField {
  readonly type: 'boolean';
  readonly title?: string;
  readonly description?: string;
  readonly default?: boolean;
}

export interface MultiSelectField {
  readonly type: 'array';
  readonly title?: string;
  readonly description?: string;
  readonly items:
    | { readonly type: 'string'; readonly enum: readonly string[] }
    | { readonly anyOf: readonly TitledOption[] };
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly default?: readonly string[];
}

export type FormField =
  StringField | EnumField | TitledEnumField | NumberField | BooleanField | MultiSelectField;

export interface FormSchema {
  readonly $schema?: string;
  readonly type: 'object';
  readonly properties: Readonly<Record<string, FormField>>;
  readonly required?: readonly string[];
}

type FieldValue<F> = F extends { readonly type: 'array'; readonly items: infer I }
  ? I extends { readonly enum: readonly (infer E)[] }
    ? E[]
    : I extends { readonly anyOf: readonly { readonly const: infer C }[] }
      ? C[]
      : string[]
  : F extends { readonly type: 'boolean' }
    ? boolean
    : F extends { readonly type: 'number' | 'integer' }
      ? number
      : F extends { readonly enum: readonly (infer E)[] }
        ? E
        : F extends { readonly oneOf: readonly { readonly const: infer C }[] }
          ? C
          : string;

type RequiredName<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The accepted content of a form with schema `S`: required fields present, the rest optional. */
export type FormContent<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends RequiredName<S> ? K : never]: FieldValue<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredName<S> ? never : K]?: FieldValue<P[K]>;
      }
    >
  : Record<string, unknown>;
