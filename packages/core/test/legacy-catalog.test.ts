import * as v2Core from '@modelcontextprotocol/core';
import * as v2Server from '@modelcontextprotocol/server';
import * as v1Types from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  CATEGORY_INFO,
  LEGACY_CAPABILITIES,
  LEGACY_CATEGORIES,
  LEGACY_ERRORS,
  LEGACY_MEMBERS,
  LEGACY_METHODS,
  LEGACY_SCHEMAS,
  legacyCapability,
  legacyMember,
  legacyMembersNamed,
  legacyMethod,
  legacySchema,
  type LegacyOwner,
} from '../src/index.js';
import { propertyNamesOfTypes } from './sdk-types.js';

const TYPE_EXPRESSION: Record<LegacyOwner, (importName: string) => string> = {
  Server: (n) => n,
  McpServer: (n) => n,
  Client: (n) => n,
  RequestHandlerExtra: (n) => `${n}<any, any>`,
  'ServerContext.mcpReq': (n) => `${n}['mcpReq']`,
};

describe('legacy member catalog against the published SDK declarations', () => {
  const owners = new Map(LEGACY_MEMBERS.map((m) => [`${m.sdk}:${m.owner}:${m.module}`, m]));
  const probes = Object.fromEntries(
    [...owners.values()].map((m, i) => {
      const importName = m.owner.split('.')[0] ?? m.owner;
      return [
        `Probe${i}`,
        { module: m.module, importName, typeExpression: TYPE_EXPRESSION[m.owner](importName) },
      ];
    }),
  );
  const members = propertyNamesOfTypes(probes);
  const aliasOf = new Map([...owners.keys()].map((key, i) => [key, `Probe${i}`]));

  it.each(LEGACY_MEMBERS.map((m) => [`${m.sdk} ${m.owner}.${m.name}`, m] as const))(
    '%s exists on the SDK type',
    (_label, member) => {
      const alias = aliasOf.get(`${member.sdk}:${member.owner}:${member.module}`) ?? '';
      expect(members.get(alias)).toContain(member.name);
    },
  );

  it('covers every push API named in the research notes, in both SDK generations', () => {
    const names = (sdk: string, owner: string) =>
      LEGACY_MEMBERS.filter((m) => m.sdk === sdk && m.owner === owner)
        .map((m) => m.name)
        .sort();
    const serverPush = [
      'createElicitationCompletionNotifier',
      'createMessage',
      'elicitInput',
      'listRoots',
      'notification',
      'request',
      'sendLoggingMessage',
    ];
    expect(names('v1', 'Server')).toEqual(serverPush);
    expect(names('v2', 'Server')).toEqual(serverPush);
    expect(names('v1', 'RequestHandlerExtra')).toEqual(['sendNotification', 'sendRequest']);
    expect(names('v2', 'ServerContext.mcpReq')).toEqual([
      'elicitInput',
      'log',
      'notify',
      'requestSampling',
      'send',
    ]);
  });

  it('finds members by owner and by name', () => {
    expect(legacyMember('ServerContext.mcpReq', 'requestSampling')).toMatchObject({
      kind: 'dedicated',
      category: 'sampling',
      sdk: 'v2',
    });
    expect(legacyMember('Server', 'elicitInput', 'v1')?.module).toBe(
      '@modelcontextprotocol/sdk/server/index.js',
    );
    expect(legacyMember('Server', 'ping')).toBeUndefined();
    expect(
      legacyMembersNamed('sendLoggingMessage')
        .map((m) => `${m.sdk}:${m.owner}`)
        .sort(),
    ).toEqual(['v1:McpServer', 'v1:Server', 'v2:McpServer', 'v2:Server']);
  });
});

describe('legacy schema catalog', () => {
  it.each(LEGACY_SCHEMAS.map((s) => [s.name] as const))(
    '%s is exported by SDK v1 types.js and v2 core',
    (name) => {
      expect(v1Types).toHaveProperty(name);
      expect(v2Core).toHaveProperty(name);
    },
  );

  it('records the method literal that request and notification schemas really carry', () => {
    for (const entry of LEGACY_SCHEMAS) {
      if (entry.role !== 'request' && entry.role !== 'notification') continue;
      const schema = (v1Types as unknown as Record<string, { shape: { method: { value: string } } }>)[
        entry.name
      ];
      expect(schema?.shape.method.value, entry.name).toBe(entry.method);
      expect(legacyMethod(entry.method)?.category, entry.name).toBe(entry.category);
    }
  });

  it('looks schemas up by exported name', () => {
    expect(legacySchema('ElicitResultSchema')).toMatchObject({
      role: 'result',
      method: 'elicitation/create',
    });
    expect(legacySchema('CallToolRequestSchema')).toBeUndefined();
  });
});

describe('legacy errors', () => {
  it.each(LEGACY_ERRORS.map((e) => [e.name, e] as const))(
    '%s exists in both SDKs with its error code',
    (name, entry) => {
      const v1 = (v1Types as unknown as Record<string, unknown>)[name];
      const v2 = (v2Server as unknown as Record<string, unknown>)[name];
      expect(typeof v1).toBe('function');
      expect(typeof v2).toBe('function');
      expect(v1Types.ErrorCode.UrlElicitationRequired).toBe(entry.code);
    },
  );
});

describe('legacy method catalog', () => {
  it('has one entry per method, each with one-sentence guidance', () => {
    const methods = LEGACY_METHODS.map((m) => m.method);
    expect(new Set(methods).size).toBe(methods.length);
    for (const entry of LEGACY_METHODS) {
      expect(entry.guidance).toMatch(/^[A-Z].*\.$/);
      expect(entry.guidance.split(/\.\s/)).toHaveLength(1);
    }
  });

  it('knows the server-to-client requests MRTR replaces and nothing that is still current', () => {
    const serverRequests = LEGACY_METHODS.filter(
      (m) => m.kind === 'request' && m.direction === 'server-to-client',
    );
    expect(serverRequests.map((m) => m.method).sort()).toEqual([
      'elicitation/create',
      'roots/list',
      'sampling/createMessage',
    ]);
    expect(legacyMethod('notifications/progress')).toBeUndefined();
    expect(legacyMethod('tools/call')).toBeUndefined();
  });
});

describe('legacy capability fields', () => {
  it('finds capability declarations by side and path', () => {
    expect(legacyCapability('server', ['logging'])?.category).toBe('logging');
    expect(legacyCapability('client', ['sampling', 'context'])?.category).toBe('sampling');
    expect(legacyCapability('client', ['elicitation'])).toBeUndefined();
    expect(legacyCapability('client', ['logging'])).toBeUndefined();
  });

  it('names only capability fields the SDK schemas define', () => {
    for (const entry of LEGACY_CAPABILITIES) {
      const schema =
        entry.side === 'client' ? v1Types.ClientCapabilitiesSchema : v1Types.ServerCapabilitiesSchema;
      let shape: unknown = schema;
      for (const segment of entry.path) {
        const unwrapped = (shape as { unwrap?: () => unknown }).unwrap?.() ?? shape;
        shape = (unwrapped as { shape: Record<string, unknown> }).shape[segment];
        expect(shape, `${entry.side} ${entry.path.join('.')}`).toBeDefined();
      }
    }
  });
});

describe('categories', () => {
  it('maps every category to one distinct lint rule', () => {
    const rules = LEGACY_CATEGORIES.map((c) => CATEGORY_INFO[c].ruleId);
    expect(new Set(rules).size).toBe(LEGACY_CATEGORIES.length);
    for (const rule of rules) expect(rule).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });
});
