import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as v1Completable from '@modelcontextprotocol/sdk/server/completable.js';
import * as v1Types from '@modelcontextprotocol/sdk/types.js';
import * as v2Server from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  CAPABILITY_REFERENCES,
  COMPLETABLE_FUNCTION,
  HANDLER_REGISTRATIONS,
  HANDLER_TYPES,
  INPUT_REQUEST_METHODS,
  isMrtrEligibleMethod,
  isRuntimeModule,
  KEYED_ANSWER_READERS,
  RESOURCE_TEMPLATE_CLASS,
  SDK_INPUT_REQUEST_BUILDERS,
  SERVER_REQUEST_METHODS,
  SERVER_REQUEST_SCHEMA_METHODS,
} from '../src/index.js';
import { propertyNamesOfTypes } from './sdk-types.js';

describe('SDK v2 MRTR API', () => {
  it('names builders that exist on inputRequired and build the method and mode recorded', () => {
    const builders = v2Server.inputRequired as unknown as Record<string, (params?: object) => unknown>;
    const params: Record<string, object> = {
      elicit: { message: 'm', requestedSchema: { type: 'object', properties: {} } },
      elicitUrl: { message: 'm', url: 'https://example.com' },
      createMessage: { messages: [], maxTokens: 1 },
      listRoots: {},
    };
    for (const [name, builder] of Object.entries(SDK_INPUT_REQUEST_BUILDERS)) {
      const built = builders[name]?.(params[name]) as { method: string; params?: { mode?: string } };
      expect(built.method, name).toBe(builder.method);
      expect(INPUT_REQUEST_METHODS).toContain(builder.method);
      if (builder.mode !== undefined) expect(built.params?.mode, name).toBe(builder.mode);
    }
  });

  it('names the answer readers, capability names and classes the SDK exports', () => {
    const exported = v2Server as unknown as Record<string, unknown>;
    for (const name of KEYED_ANSWER_READERS) expect(typeof exported[name], name).toBe('function');
    expect(typeof exported[COMPLETABLE_FUNCTION]).toBe('function');
    expect(typeof exported[RESOURCE_TEMPLATE_CLASS]).toBe('function');
    expect(CAPABILITY_REFERENCES).toContain(v2Server.CLIENT_CAPABILITIES_META_KEY);
    expect(typeof exported.MissingRequiredClientCapabilityError).toBe('function');
  });
});

describe('handler registrations', () => {
  it('names McpServer registration methods of SDK v1 and v2', () => {
    for (const name of Object.keys(HANDLER_REGISTRATIONS)) {
      expect(typeof (V1McpServer.prototype as unknown as Record<string, unknown>)[name], name).toBe(
        'function',
      );
      if (name.startsWith('register'))
        expect(typeof (v2Server.McpServer.prototype as unknown as Record<string, unknown>)[name], name).toBe(
          'function',
        );
    }
    expect(typeof v1Completable.completable).toBe('function');
  });

  it('records the method literal each SDK v1 request schema carries', () => {
    const schemas = v1Types as unknown as Record<
      string,
      { shape: { method: { value: string } } } | undefined
    >;
    for (const [name, method] of Object.entries(SERVER_REQUEST_SCHEMA_METHODS)) {
      expect(schemas[name]?.shape.method.value, name).toBe(method);
      expect(SERVER_REQUEST_METHODS).toContain(method);
    }
  });

  it('keeps only tools/call, resources/read and prompts/get eligible', () => {
    const eligible = SERVER_REQUEST_METHODS.filter((method) => isMrtrEligibleMethod(method)).sort();
    expect(eligible).toEqual(['prompts/get', 'resources/read', 'tools/call']);
  });

  it('names handler types the SDK v2 declarations export', () => {
    const sdkTypes = Object.keys(HANDLER_TYPES).filter(
      (name) => !/^(Tool|Prompt|Resource)Handler$/.test(name),
    );
    const probes = Object.fromEntries(
      sdkTypes.map((name) => [
        name,
        { module: '@modelcontextprotocol/server', importName: name, typeExpression: `{ t: ${name} }` },
      ]),
    );
    const found = propertyNamesOfTypes(probes);
    for (const name of sdkTypes) expect(found.get(name), name).toContain('t');
  });
});

describe('runtime modules', () => {
  it.each([
    ['@mcp-mrtr/runtime', true],
    ['@mcp-mrtr/runtime/http', true],
    ['@mcp-mrtr/runtimes', false],
    ['@mcp-mrtr/core', false],
  ])('%s is the runtime: %s', (specifier, expected) => {
    expect(isRuntimeModule(specifier)).toBe(expected);
  });
});
