import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineResource, definePrompt, defineTool, JsonRpcEndpoint } from '../src/http/index.js';
import { Keyring, META_KEYS, MrtrRuntime, RequestStateError, type JsonObject } from '../src/index.js';
import { auditLog, briefing, connectGithub, deploy } from './fixtures/ops-handlers.js';

// Whatever a client puts in inputResponses and requestState, the server answers with a result or
// with -32602: never an internal error, a crash or an unhandled rejection.

const unexpected: unknown[] = [];
const endpoint = new JsonRpcEndpoint({
  runtime: new MrtrRuntime({ keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }) }),
  serverInfo: { name: 'ops', version: '1.0.0' },
  tools: { deploy: defineTool({ handler: deploy }), connect_github: defineTool({ handler: connectGithub }) },
  prompts: { briefing: definePrompt({ handler: briefing }) },
  resources: { 'audit://today': defineResource({ name: 'audit', handler: auditLog }) },
  onError: (error) => {
    if (!(error instanceof RequestStateError)) unexpected.push(error);
  },
});

const headers = (method: string) => ({
  get: (name: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': method })[name] ?? null,
});

async function call(method: string, params: JsonObject) {
  return endpoint.handle({
    message: {
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          [META_KEYS.protocolVersion]: '2026-07-28',
          [META_KEYS.clientCapabilities]: { elicitation: { form: {}, url: {} } },
        },
      },
    },
    headers: headers(method),
    principal: 'ada',
  });
}

const targets: [string, JsonObject][] = [
  ['tools/call', { name: 'deploy', arguments: { service: 'api' } }],
  ['tools/call', { name: 'connect_github', arguments: {} }],
  ['prompts/get', { name: 'briefing', arguments: {} }],
  ['resources/read', { uri: 'audit://today' }],
];

/** A real state of round two of each target, to mix in as a plausible requestState. */
async function realStates(): Promise<string[]> {
  const states: string[] = [];
  for (const [method, params] of targets) {
    const first = (await call(method, params)).body?.result as JsonObject;
    const second = (
      await call(method, {
        ...params,
        inputResponses: { environment: { action: 'accept', content: { environment: 'staging' } } },
        ...(typeof first.requestState === 'string' && { requestState: first.requestState }),
      })
    ).body?.result as JsonObject;
    for (const state of [first.requestState, second.requestState])
      if (typeof state === 'string') states.push(state);
  }
  return states;
}

const answerKeys = fc.constantFrom('environment', 'replicas', 'topic', 'reason', 'connect', 'other');
const answer = fc.oneof(
  fc.jsonValue(),
  fc.record(
    { action: fc.constantFrom('accept', 'decline', 'cancel', 'maybe'), content: fc.jsonValue() },
    { requiredKeys: ['action'] },
  ),
);

describe('untrusted inputResponses and requestState', () => {
  it('always yield a result or -32602', async () => {
    const states = await realStates();
    expect(states.length).toBeGreaterThan(0);
    const requestState = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(...states),
      fc.constantFrom(...states).chain((state) => fc.string().map((suffix) => `${state}${suffix}`)),
    );
    const inputResponses = fc.oneof(fc.jsonValue(), fc.dictionary(answerKeys, answer));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        fc.option(inputResponses, { nil: undefined }),
        fc.option(requestState, { nil: undefined }),
        async ([method, params], responses, state) => {
          const { status, body } = await call(method, {
            ...params,
            ...(responses !== undefined && { inputResponses: responses }),
            ...(state !== undefined && { requestState: state }),
          });
          expect(status).toBe(200);
          expect(unexpected).toEqual([]);
          if (body?.error !== undefined) {
            expect((body.error as JsonObject).code).toBe(-32602);
          } else {
            expect(['complete', 'input_required']).toContain((body?.result as JsonObject).resultType);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
