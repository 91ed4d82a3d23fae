import { describe, expect, it } from 'vitest';
import {
  DYNAMIC_SDK_IMPORT_IN_TEXT,
  FRAMEWORK_MODULE_IN_TEXT,
  isMcpFrameworkModule,
  LEGACY_MEMBERS,
  MRTR_IN_TEXT,
  MRTR_LOOSE_IN_TEXT,
  PUSH_CALL_SHAPES,
  SDK_MODULE_IN_TEXT,
} from '../src/index.js';

describe('MCP text patterns', () => {
  it.each([
    ['agents/mcp', true],
    ['agents', true],
    ['fastmcp', true],
    ['@rekog/mcp-nest', true],
    ['mcp-use/server', true],
    ['agentsdk', false],
    ['fastmcp-utils', false],
    ['@rekog/other', false],
  ])('%s is a framework module: %s', (specifier, expected) => {
    expect(isMcpFrameworkModule(specifier)).toBe(expected);
  });

  it('finds framework imports, not words that merely contain a name', () => {
    expect(FRAMEWORK_MODULE_IN_TEXT.test(`import { McpAgent } from "agents/mcp";`)).toBe(true);
    expect(FRAMEWORK_MODULE_IN_TEXT.test(`const { FastMCP } = require('fastmcp');`)).toBe(true);
    expect(FRAMEWORK_MODULE_IN_TEXT.test(`const agents = ['a']; // fastmcp`)).toBe(false);
  });

  it('finds CommonJS and dynamic imports of SDK packages only', () => {
    expect(DYNAMIC_SDK_IMPORT_IN_TEXT.test(`require("@modelcontextprotocol/sdk/server/index.js")`)).toBe(
      true,
    );
    expect(DYNAMIC_SDK_IMPORT_IN_TEXT.test(`await import('@modelcontextprotocol/server')`)).toBe(true);
    expect(DYNAMIC_SDK_IMPORT_IN_TEXT.test(`require('@modelcontextprotocol/inspector')`)).toBe(false);
    expect(SDK_MODULE_IN_TEXT.test(`// see @modelcontextprotocol/sdk`)).toBe(true);
  });

  it('tells MRTR code by its vocabulary; the loose pattern also matches misspellings', () => {
    for (const word of ['inputRequests', 'inputResponses', 'input_required', 'inputRequired'])
      expect(MRTR_IN_TEXT.test(`x.${word}`)).toBe(true);
    expect(MRTR_IN_TEXT.test('requestStates and inputRequiredness')).toBe(false);
    expect(MRTR_LOOSE_IN_TEXT.test(`{ resultType: 'Input-Required' }`)).toBe(true);
  });

  it('describes push calls by shapes of catalog members', () => {
    for (const [name, shape] of Object.entries(PUSH_CALL_SHAPES)) {
      expect(LEGACY_MEMBERS.some((member) => member.name === name && member.owner === shape.owner)).toBe(
        true,
      );
      expect(shape.required.length).toBeGreaterThan(0);
    }
  });
});
