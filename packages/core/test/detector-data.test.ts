import * as v2Server from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  CATEGORY_INFO,
  DEFAULT_REQUEST_STATE_SEALERS,
  INPUT_REQUEST_BUILDERS,
  LEGACY_HANDLERS,
  LEGACY_MEMBERS,
  LEGACY_TYPE_METHODS,
  SDK_DECLARATION_OWNERS,
  SDK_OWNER_PROPERTIES,
  SDK_OWNER_TYPES,
  SDK_SPECIFIC_MEMBER_NAMES,
  isMcpSdkDeclarationFile,
  isMcpSdkModule,
  legacyHandler,
  mcpSdkGenerationOf,
  legacyMethodOfType,
} from '../src/index.js';
import { propertyNamesOfTypes } from './sdk-types.js';

describe('SDK packages', () => {
  it.each([
    ['@modelcontextprotocol/sdk/server/index.js', true],
    ['@modelcontextprotocol/server', true],
    ['@modelcontextprotocol/server/stdio', true],
    ['@modelcontextprotocol/core', true],
    ['@modelcontextprotocol/sdkx', false],
    ['@modelcontextprotocol/conformance', false],
    ['mcp-server', false],
  ])('%s is an SDK module: %s', (specifier, expected) => {
    expect(isMcpSdkModule(specifier)).toBe(expected);
  });

  it.each([
    ['@modelcontextprotocol/sdk', 'v1'],
    ['@modelcontextprotocol/sdk/server/mcp.js', 'v1'],
    ['@modelcontextprotocol/server', 'v2'],
    ['@modelcontextprotocol/node', 'v2'],
    ['@modelcontextprotocol/express', 'v2'],
    ['@modelcontextprotocol/sdkx', undefined],
    ['./server.js', undefined],
  ])('%s belongs to SDK generation %s', (specifier, expected) => {
    expect(mcpSdkGenerationOf(specifier)).toBe(expected);
  });

  it('recognises installed SDK declaration files on any platform', () => {
    expect(isMcpSdkDeclarationFile('/p/node_modules/@modelcontextprotocol/server/dist/index.d.mts')).toBe(
      true,
    );
    expect(isMcpSdkDeclarationFile('C:\\p\\node_modules\\@modelcontextprotocol\\sdk\\dist\\x.d.ts')).toBe(
      true,
    );
    expect(isMcpSdkDeclarationFile('/p/src/server.ts')).toBe(false);
  });
});

describe('legacy type names', () => {
  const probes = Object.fromEntries(
    Object.keys(LEGACY_TYPE_METHODS).flatMap((name) => [
      [
        `V1${name}`,
        {
          module: '@modelcontextprotocol/sdk/types.js',
          importName: name,
          typeExpression: `Record<${name}['method'], true>`,
        },
      ],
      [
        `V2${name}`,
        {
          module: '@modelcontextprotocol/server',
          importName: name,
          typeExpression: `Record<${name}['method'], true>`,
        },
      ],
    ]),
  );
  const methods = propertyNamesOfTypes(probes);

  it.each(Object.entries(LEGACY_TYPE_METHODS))('%s carries %s in both SDKs', (name, method) => {
    expect([...(methods.get(`V1${name}`) ?? [])]).toEqual([method]);
    expect([...(methods.get(`V2${name}`) ?? [])]).toEqual([method]);
    expect(legacyMethodOfType(name)?.method).toBe(method);
  });
});

describe('owners', () => {
  const owners = new Set(LEGACY_MEMBERS.map((member) => member.owner));

  it('maps declaration containers and owner properties to catalog owners', () => {
    for (const owner of [...Object.values(SDK_DECLARATION_OWNERS), ...Object.values(SDK_OWNER_PROPERTIES)]) {
      expect(owners.has(owner), owner).toBe(true);
    }
  });

  it('names owner types the SDKs export', () => {
    const probes = Object.fromEntries(
      Object.keys(SDK_OWNER_TYPES).map((name) => {
        const module =
          name === 'RequestHandlerExtra'
            ? '@modelcontextprotocol/sdk/shared/protocol.js'
            : name === 'ServerContext'
              ? '@modelcontextprotocol/server'
              : name === 'Client'
                ? '@modelcontextprotocol/sdk/client/index.js'
                : name === 'McpServer'
                  ? '@modelcontextprotocol/sdk/server/mcp.js'
                  : '@modelcontextprotocol/sdk/server/index.js';
        const typeExpression = name === 'RequestHandlerExtra' ? `${name}<any, any>` : name;
        return [name, { module, importName: name, typeExpression }];
      }),
    );
    const members = propertyNamesOfTypes(probes);
    expect(members.get('McpServer')).toContain('server');
    expect(members.get('ServerContext')).toContain('mcpReq');
    expect(members.get('RequestHandlerExtra')).toContain('sendRequest');
  });

  it('lists only catalog member names as SDK-specific', () => {
    const names = new Set(LEGACY_MEMBERS.map((member) => member.name));
    for (const name of SDK_SPECIFIC_MEMBER_NAMES) expect(names.has(name), name).toBe(true);
    for (const common of ['request', 'notification', 'log', 'send', 'notify', 'createMessage']) {
      expect(SDK_SPECIFIC_MEMBER_NAMES.has(common), common).toBe(false);
    }
  });
});

describe('legacy handlers', () => {
  it('reports server handlers for client-to-server methods and client waits for elicitation complete', () => {
    expect(legacyHandler('logging/setLevel')).toMatchObject({ side: 'server', category: 'logging' });
    expect(legacyHandler('notifications/roots/list_changed')?.category).toBe('roots');
    expect(legacyHandler('notifications/elicitation/complete')).toMatchObject({
      side: 'client',
      category: 'elicitation-complete',
    });
    for (const method of ['elicitation/create', 'sampling/createMessage', 'roots/list']) {
      expect(legacyHandler(method), method).toBeUndefined();
    }
    for (const entry of LEGACY_HANDLERS) expect(CATEGORY_INFO[entry.category].ruleId).toMatch(/^no-/);
  });
});

describe('input request builders', () => {
  it('names builders that SDK v2 really exports on inputRequired', () => {
    const builder = v2Server.inputRequired as unknown as Record<string, unknown>;
    for (const name of Object.keys(INPUT_REQUEST_BUILDERS))
      expect(typeof builder[name], name).toBe('function');
  });

  it('builds the method each builder is mapped to', () => {
    expect(v2Server.inputRequired.listRoots().method).toBe(INPUT_REQUEST_BUILDERS.listRoots);
    expect(v2Server.inputRequired.elicitUrl({ message: 'm', url: 'https://x' }).method).toBe(
      INPUT_REQUEST_BUILDERS.elicitUrl,
    );
  });
});

describe('request state sealers', () => {
  it('trusts the SDK codec mint by default', async () => {
    expect(DEFAULT_REQUEST_STATE_SEALERS).toContain('mint');
    const codec = v2Server.createRequestStateCodec<{ n: number }>({ key: 'k'.repeat(32) });
    expect(typeof codec.mint).toBe('function');
    expect(await codec.mint({ n: 1 })).toMatch(/^v1\./);
  });
});
