import { InvalidParamsError } from '../errors.js';
import {
  isJsonObject,
  type ContentBlock,
  type ElicitResult,
  type JsonObject,
  type Root,
  type SamplingResult,
} from '../protocol.js';

/**
 * This round's answer under one key, by what it looks like. `missing` when the client sent none,
 * `malformed` when it sent something that is no valid answer: such entries are never trusted.
 */
export type InputResponseView =
  | { readonly kind: 'missing' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'elicitation'; readonly result: ElicitResult }
  | { readonly kind: 'sampling'; readonly result: SamplingResult }
  | { readonly kind: 'roots'; readonly roots: readonly Root[] };

const ACTIONS: readonly unknown[] = ['accept', 'decline', 'cancel'];

function isContentBlock(value: unknown): value is ContentBlock {
  return isJsonObject(value) && typeof value.type === 'string';
}

export function parseElicitResult(value: unknown): ElicitResult | undefined {
  if (!isJsonObject(value) || !ACTIONS.includes(value.action)) return undefined;
  const action = value.action as ElicitResult['action'];
  if (action !== 'accept') return { action };
  if (value.content === undefined) return { action };
  return isJsonObject(value.content)
    ? { action, content: value.content as ElicitResult['content'] }
    : undefined;
}

export function parseSamplingResult(value: unknown): SamplingResult | undefined {
  if (!isJsonObject(value) || (value.role !== 'assistant' && value.role !== 'user')) return undefined;
  if (typeof value.model !== 'string') return undefined;
  const content = value.content;
  const valid = Array.isArray(content)
    ? content.length > 0 && content.every(isContentBlock)
    : isContentBlock(content);
  return valid ? (value as SamplingResult) : undefined;
}

export function parseRoots(value: unknown): Root[] | undefined {
  if (!isJsonObject(value) || !Array.isArray(value.roots)) return undefined;
  const roots: Root[] = [];
  for (const root of value.roots as unknown[]) {
    if (!isJsonObject(root) || typeof root.uri !== 'string') return undefined;
    if (root.name !== undefined && typeof root.name !== 'string') return undefined;
    roots.push(root.name === undefined ? { uri: root.uri } : { uri: root.uri, name: root.name });
  }
  return roots;
}

/** Reads one round's `inputResponses`. Unknown keys are never looked at. */
export class InputResponses {
  private readonly entries: JsonObject;

  /** Throws `-32602` when `inputResponses` is present but not an object. */
  constructor(value: unknown) {
    if (value !== undefined && !isJsonObject(value)) {
      throw new InvalidParamsError('inputResponses must be an object keyed by the inputRequests keys.');
    }
    this.entries = value ?? {};
  }

  /** The raw entry, only if the client sent one under exactly this key. */
  raw(key: string): unknown {
    return Object.hasOwn(this.entries, key) ? this.entries[key] : undefined;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.entries, key);
  }

  /** The entry under a key, classified by shape. */
  view(key: string): InputResponseView {
    if (!this.has(key)) return { kind: 'missing' };
    const value = this.raw(key);
    const elicitation = parseElicitResult(value);
    if (elicitation) return { kind: 'elicitation', result: elicitation };
    const roots = parseRoots(value);
    if (roots) return { kind: 'roots', roots };
    const sampling = parseSamplingResult(value);
    if (sampling) return { kind: 'sampling', result: sampling };
    return { kind: 'malformed' };
  }
}
