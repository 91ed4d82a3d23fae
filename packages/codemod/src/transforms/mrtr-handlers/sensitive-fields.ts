import { classifySensitiveName, DESCRIPTIVE_SCHEMA_KEYS, SENSITIVE_FORMATS } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import {
  findProperty,
  propertyNameText,
  propertyValue,
  staticString,
  unwrapExpression,
} from '../../analysis/syntax.js';

// A form that asks for a secret must never be rewritten into another form: the fields the
// no-sensitive-form-fields rule reports, found in a push call's literal requestedSchema.

export interface SensitiveField {
  readonly name: string;
  /** The property key, where the lint rule reports it. */
  readonly node: ts.Node;
}

function objectAt(expression: ts.Expression | undefined): ts.ObjectLiteralExpression | undefined {
  if (expression === undefined) return undefined;
  const inner = unwrapExpression(expression);
  return ts.isObjectLiteralExpression(inner) ? inner : undefined;
}

function propertyObject(
  object: ts.ObjectLiteralExpression | undefined,
  name: string,
): ts.ObjectLiteralExpression | undefined {
  const property = object === undefined ? undefined : findProperty(object, name);
  return property === undefined ? undefined : objectAt(propertyValue(property));
}

/** The secret-named fields of literal elicitation params, by name, title, description or format. */
export function sensitiveFields(params: ts.Expression | undefined): SensitiveField[] {
  const properties = propertyObject(propertyObject(objectAt(params), 'requestedSchema'), 'properties');
  if (properties === undefined) return [];
  const fields: SensitiveField[] = [];
  for (const property of properties.properties) {
    if (!ts.isPropertyAssignment(property) && !ts.isShorthandPropertyAssignment(property)) continue;
    const name = propertyNameText(property.name);
    if (name === undefined) continue;
    const field = objectAt(propertyValue(property));
    const texts = [
      name,
      ...DESCRIPTIVE_SCHEMA_KEYS.map((key) => {
        const described = field && findProperty(field, key);
        return described === undefined ? undefined : staticString(propertyValue(described));
      }),
    ];
    const format = field && findProperty(field, 'format');
    const secret =
      texts.some((text) => text !== undefined && classifySensitiveName(text) !== undefined) ||
      (format !== undefined && SENSITIVE_FORMATS.includes(staticString(propertyValue(format)) ?? ''));
    if (secret) fields.push({ name, node: property.name });
  }
  return fields;
}
