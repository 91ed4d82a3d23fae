import type { LegacyCategory } from './categories.js';

/**
 * What a zod schema constant describes. Only `request`, `result` and `notification` schemas are
 * evidence of a send or a handler; the others are vocabulary that appears in types and helpers.
 */
export type SchemaRole = 'request' | 'result' | 'notification' | 'params' | 'vocabulary';

/** A zod schema constant exported by the SDKs for an old-style feature. */
export interface LegacySchema {
  readonly name: string;
  readonly role: SchemaRole;
  readonly category: LegacyCategory;
  /** The method of the request, notification or result the schema describes. */
  readonly method?: string;
}

/** Where users import the schema constants from, per SDK generation. */
export const SCHEMA_MODULES = {
  v1: '@modelcontextprotocol/sdk/types.js',
  v2: '@modelcontextprotocol/core',
} as const;

export const LEGACY_SCHEMAS = [
  { name: 'ElicitRequestSchema', role: 'request', category: 'elicitation', method: 'elicitation/create' },
  { name: 'ElicitResultSchema', role: 'result', category: 'elicitation', method: 'elicitation/create' },
  {
    name: 'ElicitRequestParamsSchema',
    role: 'params',
    category: 'elicitation',
    method: 'elicitation/create',
  },
  {
    name: 'ElicitRequestFormParamsSchema',
    role: 'params',
    category: 'elicitation',
    method: 'elicitation/create',
  },
  {
    name: 'ElicitRequestURLParamsSchema',
    role: 'params',
    category: 'elicitation',
    method: 'elicitation/create',
  },
  {
    name: 'ElicitationCompleteNotificationSchema',
    role: 'notification',
    category: 'elicitation-complete',
    method: 'notifications/elicitation/complete',
  },
  {
    name: 'ElicitationCompleteNotificationParamsSchema',
    role: 'params',
    category: 'elicitation-complete',
    method: 'notifications/elicitation/complete',
  },

  {
    name: 'CreateMessageRequestSchema',
    role: 'request',
    category: 'sampling',
    method: 'sampling/createMessage',
  },
  {
    name: 'CreateMessageResultSchema',
    role: 'result',
    category: 'sampling',
    method: 'sampling/createMessage',
  },
  {
    name: 'CreateMessageResultWithToolsSchema',
    role: 'result',
    category: 'sampling',
    method: 'sampling/createMessage',
  },
  {
    name: 'CreateMessageRequestParamsSchema',
    role: 'params',
    category: 'sampling',
    method: 'sampling/createMessage',
  },
  { name: 'SamplingMessageSchema', role: 'vocabulary', category: 'sampling' },
  { name: 'SamplingContentSchema', role: 'vocabulary', category: 'sampling' },
  { name: 'SamplingMessageContentBlockSchema', role: 'vocabulary', category: 'sampling' },
  { name: 'ModelPreferencesSchema', role: 'vocabulary', category: 'sampling' },
  { name: 'ModelHintSchema', role: 'vocabulary', category: 'sampling' },
  { name: 'ToolChoiceSchema', role: 'vocabulary', category: 'sampling' },
  { name: 'ToolUseContentSchema', role: 'vocabulary', category: 'sampling' },
  { name: 'ToolResultContentSchema', role: 'vocabulary', category: 'sampling' },

  { name: 'ListRootsRequestSchema', role: 'request', category: 'roots', method: 'roots/list' },
  { name: 'ListRootsResultSchema', role: 'result', category: 'roots', method: 'roots/list' },
  {
    name: 'RootsListChangedNotificationSchema',
    role: 'notification',
    category: 'roots',
    method: 'notifications/roots/list_changed',
  },
  { name: 'RootSchema', role: 'vocabulary', category: 'roots' },

  { name: 'SetLevelRequestSchema', role: 'request', category: 'logging', method: 'logging/setLevel' },
  { name: 'SetLevelRequestParamsSchema', role: 'params', category: 'logging', method: 'logging/setLevel' },
  {
    name: 'LoggingMessageNotificationSchema',
    role: 'notification',
    category: 'logging',
    method: 'notifications/message',
  },
  {
    name: 'LoggingMessageNotificationParamsSchema',
    role: 'params',
    category: 'logging',
    method: 'notifications/message',
  },
  { name: 'LoggingLevelSchema', role: 'vocabulary', category: 'logging' },
] as const satisfies readonly LegacySchema[];

const byName: ReadonlyMap<string, LegacySchema> = new Map(LEGACY_SCHEMAS.map((entry) => [entry.name, entry]));

/** The catalog entry for a schema constant's exported name, or undefined. */
export function legacySchema(name: string): LegacySchema | undefined {
  return byName.get(name);
}
