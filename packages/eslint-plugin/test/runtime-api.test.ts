import {
  ADAPTER_REQUEST_HANDLER_METHOD,
  CAPABILITY_CHECK_CALLS,
  HANDLER_TYPES,
  ROUND_ASK_METHOD,
  ROUND_INPUT_REQUIRED_METHOD,
  ROUND_STEP_METHOD,
  RUNTIME_HANDLER_DEFINITIONS,
  RUNTIME_HANDLER_TYPES,
  RUNTIME_INPUT_REQUEST_BUILDERS,
  RUNTIME_ROUND_TYPES,
  SUSPENSION_CLASS,
  SUSPENSION_TEST,
  URL_ANSWER_READERS,
} from '@mcp-mrtr/core';
import * as runtime from '@mcp-mrtr/runtime';
import * as runtimeHttp from '@mcp-mrtr/runtime/http';
import * as runtimeV1 from '@mcp-mrtr/runtime/sdk-v1';
import * as runtimeV2 from '@mcp-mrtr/runtime/sdk-v2';
import { describe, expect, it } from 'vitest';

// The rules recognise runtime code as correct by name; these names must be the runtime's real API.
describe('the runtime API the rules recognise', () => {
  const exported = runtime as unknown as Record<string, unknown>;

  it('names builders the runtime exports, building the method and mode recorded', () => {
    const params: Record<string, object> = {
      elicitForm: { message: 'm', requestedSchema: { type: 'object', properties: {} } },
      elicitUrl: { message: 'm', url: 'https://example.com' },
      createMessage: { messages: [], maxTokens: 1 },
    };
    for (const [name, builder] of Object.entries(RUNTIME_INPUT_REQUEST_BUILDERS)) {
      const build = exported[name] as (params?: object) => { method: string; params?: { mode?: string } };
      const built = build(params[name]);
      expect(built.method, name).toBe(builder.method);
      if (builder.mode !== undefined) expect(built.params?.mode, name).toBe(builder.mode);
    }
  });

  it('names Round methods and capability helpers that exist', () => {
    const round = runtime.Round.prototype as unknown as Record<string, unknown>;
    for (const name of [
      ROUND_INPUT_REQUIRED_METHOD,
      ROUND_ASK_METHOD,
      ROUND_STEP_METHOD,
      ...URL_ANSWER_READERS,
      'supports',
    ])
      expect(typeof round[name], name).toBe('function');
    const helpers = CAPABILITY_CHECK_CALLS.filter((name) => name in exported);
    expect(helpers).toEqual(
      expect.arrayContaining(['clientSupports', 'supportedInputRequests', 'requireClientCapabilities']),
    );
  });

  it('names the plain-HTTP definitions', () => {
    for (const name of Object.keys(RUNTIME_HANDLER_DEFINITIONS))
      expect(typeof (runtimeHttp as unknown as Record<string, unknown>)[name], name).toBe('function');
  });

  it('maps the runtime handler types to their methods', () => {
    // A rename in the runtime fails the type-check of this file, which npm test runs.
    type Named = {
      ToolHandler: runtime.ToolHandler;
      PromptHandler: runtime.PromptHandler;
      ResourceHandler: runtime.ResourceHandler;
    };
    const names: (keyof Named)[] = ['ToolHandler', 'PromptHandler', 'ResourceHandler'];
    expect(RUNTIME_HANDLER_TYPES).toEqual(names);
    expect(names.map((name) => HANDLER_TYPES[name])).toEqual(['tools/call', 'prompts/get', 'resources/read']);
  });

  it("names the round classes, the suspension test and the adapters' low-level handler", () => {
    const classes = { ...runtime, ...runtimeV1, ...runtimeV2 } as unknown as Record<string, unknown>;
    for (const name of RUNTIME_ROUND_TYPES) {
      const round = classes[name] as { prototype: unknown } | undefined;
      expect(round?.prototype instanceof runtime.Round || round === runtime.Round, name).toBe(true);
    }
    expect(typeof exported[SUSPENSION_TEST]).toBe('function');
    expect(typeof exported[SUSPENSION_CLASS]).toBe('function');
    for (const adapter of [runtimeV1.SdkV1Adapter, runtimeV2.SdkV2Adapter])
      expect(
        typeof (adapter.prototype as unknown as Record<string, unknown>)[ADAPTER_REQUEST_HANDLER_METHOD],
      ).toBe('function');
  });
});
