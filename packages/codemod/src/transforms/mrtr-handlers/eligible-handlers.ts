import {
  isMcpSdkDeclarationFile,
  isMrtrEligibleMethod,
  MRTR_ELIGIBLE_REQUEST_SCHEMAS,
  type MrtrEligibleMethod,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { sdkExportName } from '../../analysis/sdk-resolution.js';
import { syntacticGeneration, unresolvedSdkExportName } from '../../analysis/unresolved-sdk-evidence.js';
import { staticString, unwrapExpression } from '../../analysis/syntax.js';
import { asMemberCall } from '../shared/calls.js';

// Where a push call runs: in a handler registered for tools/call, prompts/get or resources/read
// (which may answer input_required), in a helper only such handlers call, or elsewhere.

export type HandlerFunction = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration;

/** A function the rewrite follows from a handler: a function, or a class's method. */
export type HelperFunction = HandlerFunction | ts.MethodDeclaration;

/** SDK v1 (`@modelcontextprotocol/sdk`) passes `extra`; v2 (`@modelcontextprotocol/server`) passes `ctx`. */
export type Generation = 'v1' | 'v2';

/** How the handler was registered. */
export type RegistrationKind = 'tool' | 'prompt' | 'resource' | 'low-level';

export interface EligibleHandler {
  readonly callback: HandlerFunction;
  readonly registration: ts.CallExpression;
  /** `server.registerTool` in `server.registerTool(…)`. */
  readonly access: ts.PropertyAccessExpression;
  readonly kind: RegistrationKind;
  readonly method: MrtrEligibleMethod;
  readonly generation: Generation;
  /** The registered name when it is a literal (`delete_project`), for answer keys. */
  readonly name: string | undefined;
  /** The deprecated shorthand (`tool`, `prompt`, `resource`) was used. */
  readonly shorthand: boolean;
}

const REGISTRATIONS: Readonly<Record<string, RegistrationKind>> = {
  registerTool: 'tool',
  tool: 'tool',
  registerPrompt: 'prompt',
  prompt: 'prompt',
  registerResource: 'resource',
  resource: 'resource',
  setRequestHandler: 'low-level',
};

const METHOD_OF: Readonly<Record<Exclude<RegistrationKind, 'low-level'>, MrtrEligibleMethod>> = {
  tool: 'tools/call',
  prompt: 'prompts/get',
  resource: 'resources/read',
};

export function generationOf(
  checker: ts.TypeChecker,
  access: ts.PropertyAccessExpression,
): Generation | undefined {
  const declaration = checker.getSymbolAtLocation(access.name)?.declarations?.[0];
  const file = declaration?.getSourceFile().fileName.replaceAll('\\', '/');
  if (file === undefined || !isMcpSdkDeclarationFile(file)) return undefined;
  return file.includes('/@modelcontextprotocol/sdk/') ? 'v1' : 'v2';
}

/** The method a `setRequestHandler` registration serves: a v1 schema or a v2 method string. */
function handledMethod(context: FileContext, first: ts.Expression | undefined): string | undefined {
  if (first === undefined) return undefined;
  const literal = staticString(first);
  if (literal !== undefined) return literal;
  const schema =
    sdkExportName(context.checker, unwrapExpression(first)) ?? unresolvedSdkExportName(context, first);
  return schema === undefined ? undefined : (MRTR_ELIGIBLE_REQUEST_SCHEMAS[schema] ?? schema);
}

/** The SDK registration `callback` is passed to as its handler, or why it is not eligible. */
export function registrationOf(
  context: FileContext,
  call: ts.CallExpression,
  callback: HandlerFunction,
): EligibleHandler | { readonly reason: string } | undefined {
  const member = asMemberCall(call);
  if (member === undefined) return undefined;
  const kind = REGISTRATIONS[member.name];
  if (kind === undefined) return undefined;
  const handlerArgument = call.arguments.at(-1);
  if (handlerArgument === undefined || !isHandlerArgument(context, handlerArgument, callback))
    return undefined;
  const resolution = context.resolveMember(member.access);
  // Without the SDK's types (before `npm install`), say so: "a callback passed to registerTool()"
  // would read as if the handler itself could never ask.
  if (resolution.kind === 'unresolved') {
    const receiver = context.textOf(member.access.expression);
    return {
      reason: `it runs in a callback passed to ${receiver}.${member.name}(), but the type of ${receiver} is unknown (any), so this may not be the MCP SDK`,
    };
  }
  if (resolution.kind !== 'sdk') return undefined;
  const generation =
    generationOf(context.checker, member.access) ?? syntacticGeneration(context, member.access);
  if (generation === undefined) return undefined;
  let method: MrtrEligibleMethod;
  if (kind === 'low-level') {
    const handled = handledMethod(context, call.arguments[0]);
    if (handled === undefined || !isMrtrEligibleMethod(handled)) {
      return {
        reason: `it runs in a ${handled ?? 'request'} handler, which cannot answer input_required (only tools/call, prompts/get and resources/read can)`,
      };
    }
    method = handled;
  } else {
    method = METHOD_OF[kind];
  }
  return {
    callback,
    registration: call,
    access: member.access,
    kind,
    method,
    generation,
    name: kind === 'low-level' ? undefined : staticString(call.arguments[0]),
    shorthand: member.name === 'tool' || member.name === 'prompt' || member.name === 'resource',
  };
}

/** Whether the registration's handler argument is `callback`, inline or by name. */
function isHandlerArgument(
  context: FileContext,
  argument: ts.Expression,
  callback: HandlerFunction,
): boolean {
  const inner = unwrapExpression(argument);
  if (inner === callback) return true;
  if (!ts.isIdentifier(inner)) return false;
  const symbol = context.checker.getSymbolAtLocation(inner);
  return symbol !== undefined && functionOfSymbol(symbol) === callback;
}

/** The function a symbol names: `function f() {}` or `const f = () => …`. */
export function functionOfSymbol(symbol: ts.Symbol): HandlerFunction | undefined {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (declaration === undefined) return undefined;
  if (ts.isFunctionDeclaration(declaration)) return declaration;
  if (ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined) {
    const init = unwrapExpression(declaration.initializer);
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
  }
  return undefined;
}

/** The identifier a named function is known by in its file, if any (a method's or property's name). */
export function nameOfFunction(fn: HelperFunction): ts.Identifier | ts.PrivateIdentifier | undefined {
  if (ts.isFunctionDeclaration(fn)) return fn.name;
  if (ts.isMethodDeclaration(fn))
    return ts.isIdentifier(fn.name) || ts.isPrivateIdentifier(fn.name) ? fn.name : undefined;
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name;
  if (
    ts.isPropertyDeclaration(parent) &&
    (ts.isIdentifier(parent.name) || ts.isPrivateIdentifier(parent.name))
  )
    return parent.name;
  // `{ confirm: async (…) => … }`: the property's name, as `{ async confirm(…) {…} }` has.
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name;
  if (ts.isFunctionExpression(fn)) return fn.name;
  return undefined;
}
