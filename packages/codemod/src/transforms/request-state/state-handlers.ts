import {
  MRTR_ELIGIBLE_REQUEST_SCHEMAS,
  isMcpSdkDeclarationFile,
  isMrtrEligibleMethod,
  type MrtrEligibleMethod,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { sdkExportName } from '../../analysis/sdk-resolution.js';
import { findProperty, propertyNameText, staticString, unwrapExpression } from '../../analysis/syntax.js';
import { quoteString } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { asMemberCall } from '../shared/calls.js';

// The handler a requestState belongs to, and how to name whom and which request sealed state is
// bound to from inside it: the principal from verified auth and the request's method, target and
// arguments, read from the handler's own parameters.

type Callback = ts.ArrowFunction | ts.FunctionExpression;

/** A registered `tools/call`, `prompts/get` or `resources/read` handler and what binds its state. */
export interface StateHandler {
  readonly callback: Callback;
  readonly method: MrtrEligibleMethod;
  /** Parameters the callback must gain so the binding can name them (`extra`, `ctx`). */
  readonly parameterEdits: readonly TextEdit[];
  /** `requestStateBinding(<principal>, 'tools/call', <target>, <arguments>)` at a site. */
  bindingAt(site: ts.Node, helper: string): string | { readonly reason: string };
}

/** A handler found around a site, or why the state there cannot be bound. */
export type HandlerLookup =
  { readonly handler: StateHandler } | { readonly callback?: Callback; readonly reason: string };

const REGISTRATIONS: Readonly<Record<string, MrtrEligibleMethod | 'handler'>> = {
  setRequestHandler: 'handler',
  registerTool: 'tools/call',
  registerPrompt: 'prompts/get',
  registerResource: 'resources/read',
};

/** The deprecated McpServer shorthands, and what replaces each. */
const SHORTHAND_REGISTRATIONS: Readonly<Record<string, string>> = {
  tool: 'registerTool',
  prompt: 'registerPrompt',
  resource: 'registerResource',
};

/** SDK v1 (`@modelcontextprotocol/sdk`) passes `extra`; v2 passes `ctx`, with auth under `http`. */
type Generation = 'v1' | 'v2';

const CONTEXT_PARAMETER: Readonly<Record<Generation, string>> = { v1: 'extra', v2: 'ctx' };

function generationOf(checker: ts.TypeChecker, access: ts.PropertyAccessExpression): Generation | undefined {
  const declaration = checker.getSymbolAtLocation(access.name)?.declarations?.[0];
  const file = declaration?.getSourceFile().fileName.replaceAll('\\', '/');
  if (file === undefined || !isMcpSdkDeclarationFile(file)) return undefined;
  return file.includes('/@modelcontextprotocol/sdk/') ? 'v1' : 'v2';
}

/** The verified auth the binding helper reads the principal from. */
function authOf(generation: Generation, context: string): string {
  return generation === 'v1' ? `${context}.authInfo` : `${context}.http?.authInfo`;
}

/** The method a `setRequestHandler` registration serves: a v1 schema or a v2 method string. */
function handledMethod(context: FileContext, first: ts.Expression | undefined): string | undefined {
  if (first === undefined) return undefined;
  const literal = staticString(first);
  if (literal !== undefined) return literal;
  const schema = sdkExportName(context.checker, unwrapExpression(first));
  return schema === undefined ? undefined : (MRTR_ELIGIBLE_REQUEST_SCHEMAS[schema] ?? schema);
}

/** Names used anywhere in the callback, so an added parameter shadows nothing it refers to. */
function namesIn(node: ts.Node): Set<string> {
  const names = new Set<string>();
  const visit = (current: ts.Node): void => {
    if (ts.isIdentifier(current)) names.add(current.text);
    ts.forEachChild(current, visit);
  };
  visit(node);
  return names;
}

function freshName(taken: Set<string>, name: string): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}${n}`;
  taken.add(candidate);
  return candidate;
}

/** A parameter the binding refers to: its name, and the symbol that name must resolve to. */
interface BoundName {
  readonly text: string;
  readonly symbol: ts.Symbol | undefined;
}

/** Part of a binding's text, with the parameters it names. */
interface Part {
  readonly text: string;
  readonly names: readonly BoundName[];
}

/**
 * The callback's parameters at the positions the SDK passes them, adding the missing trailing
 * ones (`(request) =>` becomes `(request, extra) =>`). Positions that must be plain identifiers
 * are; `args` may be an object pattern.
 */
function parametersOf(
  context: FileContext,
  callback: Callback,
  wanted: readonly string[],
): { names: (ts.ParameterDeclaration | string)[]; edits: TextEdit[] } | string {
  const parameters = callback.parameters;
  if (parameters.length > wanted.length) return 'the handler takes more parameters than the SDK passes';
  for (const parameter of parameters) {
    if (parameter.dotDotDotToken !== undefined || parameter.initializer !== undefined)
      return 'the handler has a rest or defaulted parameter';
  }
  const taken = namesIn(callback);
  const added = wanted.slice(parameters.length).map((name) => freshName(taken, name));
  if (added.length === 0) return { names: [...parameters], edits: [] };
  const text = context.text;
  const last = parameters.at(-1);
  let edit: TextEdit;
  if (last === undefined) {
    edit = { start: parameters.pos, end: parameters.pos, text: added.join(', ') };
  } else {
    const start = parameters[0]!.getStart(context.sourceFile);
    const parenthesized = text.slice(callback.getStart(context.sourceFile), start).includes('(');
    edit = parenthesized
      ? { start: last.end, end: last.end, text: `, ${added.join(', ')}` }
      : { start, end: last.end, text: `(${context.textOf(last)}, ${added.join(', ')})` };
  }
  return { names: [...parameters, ...added], edits: [edit] };
}

function boundName(context: FileContext, parameter: ts.ParameterDeclaration | string): BoundName | string {
  if (typeof parameter === 'string') return { text: parameter, symbol: undefined };
  if (!ts.isIdentifier(parameter.name)) return 'the handler destructures its request or context parameter';
  return { text: parameter.name.text, symbol: context.checker.getSymbolAtLocation(parameter.name) };
}

/**
 * The tool or prompt arguments as an expression: the parameter, or for `({ a, b: c }) =>` the
 * object of the fields the handler reads, `{ a, b: c }`.
 */
function argumentsOf(context: FileContext, parameter: ts.ParameterDeclaration | string): Part | string {
  if (typeof parameter === 'string' || ts.isIdentifier(parameter.name)) {
    const name = boundName(context, parameter);
    return typeof name === 'string' ? name : { text: name.text, names: [name] };
  }
  if (!ts.isObjectBindingPattern(parameter.name)) return 'the handler destructures its arguments as an array';
  const fields: string[] = [];
  const names: BoundName[] = [];
  for (const element of parameter.name.elements) {
    if (!ts.isIdentifier(element.name))
      return 'the handler destructures its arguments more than one level deep';
    const local = element.name.text;
    names.push({ text: local, symbol: context.checker.getSymbolAtLocation(element.name) });
    if (element.dotDotDotToken !== undefined) {
      fields.push(`...${local}`);
      continue;
    }
    const key = element.propertyName === undefined ? local : propertyNameText(element.propertyName);
    if (key === undefined) return 'the handler destructures a computed argument name';
    fields.push(
      key === local
        ? local
        : `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : quoteString(context.style, key)}: ${local}`,
    );
  }
  const inner = fields.join(', ');
  return { text: context.style.bracketSpacing && inner ? `{ ${inner} }` : `{${inner}}`, names };
}

/** The registered name, when it is a literal or a `const` the site still sees. */
function targetName(context: FileContext, name: ts.Expression | undefined): Part | string {
  const why = 'the registered name is computed, so the binding cannot name it';
  if (name === undefined) return why;
  const inner = unwrapExpression(name);
  if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner))
    return { text: context.textOf(inner), names: [] };
  if (!ts.isIdentifier(inner)) return why;
  const symbol = context.checker.getSymbolAtLocation(inner);
  const declaration = symbol?.declarations?.[0];
  if (
    declaration === undefined ||
    !ts.isVariableDeclaration(declaration) ||
    !ts.isVariableDeclarationList(declaration.parent) ||
    (declaration.parent.flags & ts.NodeFlags.Const) === 0
  )
    return why;
  return { text: inner.text, names: [{ text: inner.text, symbol }] };
}

/** How the SDK calls a registered callback, and where the request's target and arguments are. */
interface Registration {
  readonly method: MrtrEligibleMethod;
  /** The parameters the SDK passes, by conventional name; the last one is the handler context. */
  readonly parameters: readonly string[];
  request(parameters: readonly (ts.ParameterDeclaration | string)[]): { target: Part; args?: Part } | string;
}

/** `setRequestHandler(CallToolRequestSchema | 'tools/call', (request, extra) => …)`. */
function lowLevelRegistration(
  context: FileContext,
  call: ts.CallExpression,
  contextName: string,
): Registration | string {
  const handled = handledMethod(context, call.arguments[0]);
  if (handled === undefined || !isMrtrEligibleMethod(handled)) {
    return `a ${handled ?? 'request'} handler cannot return input_required; only tools/call, prompts/get and resources/read can`;
  }
  return {
    method: handled,
    parameters: ['request', contextName],
    request([parameter]) {
      const request = boundName(context, parameter!);
      if (typeof request === 'string') return request;
      if (handled === 'resources/read')
        return { target: { text: `${request.text}.params.uri`, names: [request] } };
      return {
        target: { text: `${request.text}.params.name`, names: [request] },
        args: { text: `${request.text}.params.arguments`, names: [request] },
      };
    },
  };
}

/** `registerTool(name, config, (args, extra) => …)`, `registerPrompt(…)`, `registerResource(…)`. */
function mcpServerRegistration(
  context: FileContext,
  call: ts.CallExpression,
  method: MrtrEligibleMethod,
  contextName: string,
): Registration | string {
  const [name, second, third] = call.arguments;
  if (method === 'resources/read') {
    const template = second !== undefined && ts.isNewExpression(unwrapExpression(second));
    return {
      method,
      parameters: template ? ['uri', 'variables', contextName] : ['uri', contextName],
      request([parameter]) {
        const uri = boundName(context, parameter!);
        return typeof uri === 'string' ? uri : { target: { text: `${uri.text}.href`, names: [uri] } };
      },
    };
  }
  const config = second === undefined ? undefined : unwrapExpression(second);
  if (config === undefined || !ts.isObjectLiteralExpression(config) || third === undefined)
    return 'its configuration is not an object literal, so the handler’s parameters cannot be told apart';
  const target = targetName(context, name);
  if (typeof target === 'string') return target;
  const withArguments =
    findProperty(config, method === 'tools/call' ? 'inputSchema' : 'argsSchema') !== undefined;
  return {
    method,
    parameters: withArguments ? ['args', contextName] : [contextName],
    request([parameter]) {
      if (!withArguments) return { target };
      const args = argumentsOf(context, parameter!);
      return typeof args === 'string' ? args : { target, args };
    },
  };
}

/** What the handler's binding is made of, once its registration is understood. */
interface BindingParts {
  readonly generation: Generation;
  readonly context: BoundName;
  readonly target: Part;
  readonly args?: Part;
}

function describeRegistration(
  context: FileContext,
  call: ts.CallExpression,
  callback: Callback,
  registration: MrtrEligibleMethod | 'handler',
  generation: Generation,
): { method: MrtrEligibleMethod; parts: BindingParts; edits: TextEdit[] } | string {
  const contextName = CONTEXT_PARAMETER[generation];
  const shape =
    registration === 'handler'
      ? lowLevelRegistration(context, call, contextName)
      : mcpServerRegistration(context, call, registration, contextName);
  if (typeof shape === 'string') return shape;
  const parameters = parametersOf(context, callback, shape.parameters);
  if (typeof parameters === 'string') return parameters;
  const contextParameter = boundName(context, parameters.names[shape.parameters.length - 1]!);
  if (typeof contextParameter === 'string') return contextParameter;
  const request = shape.request(parameters.names);
  if (typeof request === 'string') return request;
  return {
    method: shape.method,
    parts: { generation, context: contextParameter, ...request },
    edits: parameters.edits,
  };
}

function stateHandler(
  context: FileContext,
  callback: Callback,
  method: MrtrEligibleMethod,
  parts: BindingParts,
  parameterEdits: readonly TextEdit[],
): StateHandler {
  const names = [parts.context, ...parts.target.names, ...(parts.args?.names ?? [])];
  return {
    callback,
    method,
    parameterEdits,
    bindingAt(site, helper) {
      for (const name of names) {
        if (name.symbol === undefined) continue;
        const seen = context.checker.resolveName(name.text, site, ts.SymbolFlags.Value, false);
        if (seen !== name.symbol)
          return { reason: `${name.text} means something else here than the handler’s parameter` };
      }
      const argumentsText = parts.args === undefined ? '' : `, ${parts.args.text}`;
      return `${helper}(${authOf(parts.generation, parts.context.text)}, ${quoteString(context.style, method)}, ${parts.target.text}${argumentsText})`;
    },
  };
}

/**
 * The innermost enclosing callback registered with the MCP SDK as a handler, and what binds state
 * written or read inside it; or why there is none.
 */
export function findStateHandler(
  context: FileContext,
  node: ts.Node,
  cache: Map<Callback, HandlerLookup>,
): HandlerLookup {
  for (let current = node.parent; current !== undefined; current = current.parent) {
    if (!ts.isArrowFunction(current) && !ts.isFunctionExpression(current)) continue;
    const cached = cache.get(current);
    if (cached !== undefined) return cached;
    const call = current.parent;
    const member = ts.isCallExpression(call) ? asMemberCall(call) : undefined;
    if (member === undefined || member.call.arguments.at(-1) !== current) continue;
    const registration = REGISTRATIONS[member.name];
    const shorthand = SHORTHAND_REGISTRATIONS[member.name];
    if (registration === undefined && shorthand === undefined) continue;
    const resolution = context.resolveMember(member.access);
    const generation = resolution.kind === 'sdk' ? generationOf(context.checker, member.access) : undefined;
    if (generation === undefined) continue;
    const described =
      registration === undefined
        ? `the handler is registered with ${member.name}(), whose overloads the codemod does not map; register it with ${shorthand}() and run again`
        : describeRegistration(context, member.call, current, registration, generation);
    const lookup: HandlerLookup =
      typeof described === 'string'
        ? { callback: current, reason: described }
        : { handler: stateHandler(context, current, described.method, described.parts, described.edits) };
    cache.set(current, lookup);
    return lookup;
  }
  return {
    reason:
      'it is not inside a tools/call, prompts/get or resources/read handler registered with the MCP SDK, so the codemod cannot tell whom and which request to bind the state to',
  };
}
