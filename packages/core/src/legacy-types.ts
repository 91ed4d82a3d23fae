import { legacyMethod, type LegacyMethod } from './legacy-methods.js';

/**
 * SDK type names for old-style requests and notifications. A request object annotated or cast as
 * one of them (`const req: ElicitRequest = …`, `{ … } as ElicitRequest`) carries that method even
 * when its `method` property is not written out where it is sent.
 */
export const LEGACY_TYPE_METHODS: Readonly<Record<string, string>> = {
  ElicitRequest: 'elicitation/create',
  CreateMessageRequest: 'sampling/createMessage',
  ListRootsRequest: 'roots/list',
  LoggingMessageNotification: 'notifications/message',
  ElicitationCompleteNotification: 'notifications/elicitation/complete',
  SetLevelRequest: 'logging/setLevel',
  RootsListChangedNotification: 'notifications/roots/list_changed',
};

/** The legacy method a type name stands for, or undefined. */
export function legacyMethodOfType(typeName: string): LegacyMethod | undefined {
  const method = LEGACY_TYPE_METHODS[typeName];
  return method === undefined ? undefined : legacyMethod(method);
}
