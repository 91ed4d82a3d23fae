// MRTR code as written: input_required results (literals, SDK v2's `inputRequired(…)`, the
// runtime's `round.inputRequired(…)`), the input requests inside them, and elicitation params
// wherever they are built (literal requests, SDK and runtime builders, legacy push calls).
import {
  isRuntimeModule,
  ROUND_INPUT_REQUIRED_METHOD,
  RUNTIME_INPUT_REQUEST_BUILDERS,
  SDK_INPUT_REQUEST_BUILDERS,
  type ElicitationMode,
  type InputRequestBuilder,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import {
  asObjectLiteral,
  findVariable,
  objectProperty,
  resolveConst,
  staticKey,
  staticString,
  unwrap,
} from './ast.js';
import type { FileAnalysis } from './file-analysis.js';
import { classification, type BuildingNode } from './classification.js';
import { heldPushMember } from './invoked-member.js';
import { callSites } from './legacy-sites.js';
import { enclosingFunction, type FunctionNode } from './handlers.js';
import { ELICITATION_IN_TEXT, INPUT_REQUIRED_IN_TEXT } from './text-hints.js';
import { isSdkBuilderObject } from './sdk-references.js';
import { DefinitionType } from './definition-type.js';

export { isSdkBuilderObject };

type Node = TSESTree.Node;

export const INPUT_REQUIRED = 'input_required';
export const ELICITATION_METHOD = 'elicitation/create';

/**
 * How an input_required result is built. `round` results are checked and sealed by the runtime;
 * `sdk` results pass SDK v2's seam, which checks capabilities and requires inputRequests or state.
 */
export type ResultKind = 'literal' | 'sdk' | 'round';

export interface InputRequiredResult {
  readonly kind: ResultKind;
  /** The object literal or the builder call. */
  readonly node: TSESTree.ObjectExpression | TSESTree.CallExpression;
  /** The object whose properties are `inputRequests`, `requestState` (or the runtime's `state`). */
  readonly spec: TSESTree.ObjectExpression | undefined;
}

/**
 * The file's input_required results. A literal `resultType` and both builders are written with the
 * words `input_required` / `inputRequired`, so without types a file whose text has neither builds
 * none.
 */
const RESULTS = classification<InputRequiredResult>('input_required results', (file) =>
  file.typed !== undefined || file.mentions(INPUT_REQUIRED_IN_TEXT)
    ? (node) => classifyResult(file, node)
    : undefined,
);

/** The input_required result an object literal or call builds, if it builds one. */
export function inputRequiredResult(file: FileAnalysis, node: BuildingNode): InputRequiredResult | undefined {
  return RESULTS.of(file, node);
}

/** Every input_required result the file builds, in source order. */
export function fileInputRequiredResults(file: FileAnalysis): readonly InputRequiredResult[] {
  return RESULTS.inFile(file);
}

/** Whether an object literal can have a property `key` (written, or behind a spread). */
function mayHaveProperty(object: TSESTree.ObjectExpression, key: string): boolean {
  return object.properties.some(
    (property) => property.type === AST_NODE_TYPES.SpreadElement || staticKey(property) === key,
  );
}

function classifyResult(
  file: FileAnalysis,
  node: TSESTree.ObjectExpression | TSESTree.CallExpression,
): InputRequiredResult | undefined {
  if (node.type === AST_NODE_TYPES.ObjectExpression) {
    if (!mayHaveProperty(node, 'resultType')) return undefined;
    const scope = file.scopeOf(node);
    const resultType = objectProperty(scope, node, 'resultType');
    return resultType !== undefined && staticString(scope, resultType.value) === INPUT_REQUIRED
      ? { kind: 'literal', node, spec: node }
      : undefined;
  }
  const [argument] = node.arguments;
  if (argument === undefined || argument.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const callee = unwrap(node.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    if (!isSdkBuilderObject(file, callee)) return undefined;
    return { kind: 'sdk', node, spec: asObjectLiteral(file.scopeOf(node), argument) };
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression || staticKey(callee) !== ROUND_INPUT_REQUIRED_METHOD) {
    return undefined;
  }
  if (isSdkBuilderObject(file, callee.object)) return undefined;
  const scope = file.scopeOf(node);
  const spec = asObjectLiteral(scope, argument);
  // `round.inputRequired({ inputRequests, state })`; any other object argument is someone else's method.
  const looksLikeRound =
    spec !== undefined &&
    (objectProperty(scope, spec, 'inputRequests') !== undefined ||
      objectProperty(scope, spec, 'state') !== undefined);
  return looksLikeRound ? { kind: 'round', node, spec } : undefined;
}

/**
 * Whether an object literal is what an input_required result sends: the result itself, the spec of
 * a recognised builder (`inputRequired({…})` from SDK v2, the runtime's `round.inputRequired({…})`),
 * or an object that carries `inputRequests` (a result assembled by hand and handed to a helper).
 * A call that is only named `inputRequired` is someone else's function, as everywhere else.
 */
export function isResultSpec(file: FileAnalysis, object: TSESTree.ObjectExpression): boolean {
  if (inputRequiredResult(file, object) !== undefined) return true;
  if (objectProperty(file.scopeOf(object), object, 'inputRequests') !== undefined) return true;
  let node: Node = object;
  while (
    node.parent?.type === AST_NODE_TYPES.TSAsExpression ||
    node.parent?.type === AST_NODE_TYPES.TSSatisfiesExpression
  )
    node = node.parent;
  const call = node.parent;
  return (
    call?.type === AST_NODE_TYPES.CallExpression &&
    call.arguments[0] === node &&
    inputRequiredResult(file, call)?.spec === object
  );
}

/**
 * The function a value is returned from (`return …`, an arrow's body, through conditionals,
 * `await` and type assertions), or undefined when the value is used some other way.
 */
export function returnedFrom(value: Node): FunctionNode | undefined {
  let node: Node = value;
  for (let parent = node.parent; parent != null; node = parent, parent = parent.parent) {
    switch (parent.type) {
      case AST_NODE_TYPES.ConditionalExpression:
        if (parent.test === node) return undefined;
        continue;
      case AST_NODE_TYPES.LogicalExpression:
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
        continue;
      case AST_NODE_TYPES.ReturnStatement:
        return enclosingFunction(parent);
      case AST_NODE_TYPES.ArrowFunctionExpression:
        return parent.body === node ? parent : undefined;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** One request in `inputRequests`, as far as it can be read. */
export interface InputRequestInfo {
  readonly method: string;
  /** Elicitation mode; undefined for other methods and for a mode that is not a literal. */
  readonly mode: ElicitationMode | undefined;
  /** The params object, when it is an object literal. */
  readonly params: TSESTree.ObjectExpression | undefined;
  /** Where the request is built (the object literal or the builder call). */
  readonly node: Node;
  readonly source: 'literal' | 'sdk-builder' | 'runtime-builder';
}

function modeOf(file: FileAnalysis, method: string, params: TSESTree.ObjectExpression | undefined) {
  if (method !== ELICITATION_METHOD) return undefined;
  if (params === undefined) return 'form';
  const mode = objectProperty(file.scopeOf(params), params, 'mode');
  if (mode === undefined) return 'form';
  const value = staticString(file.scopeOf(params), mode.value);
  return value === 'form' || value === 'url' ? value : undefined;
}

function fromBuilder(
  file: FileAnalysis,
  call: TSESTree.CallExpression,
  builder: InputRequestBuilder,
  source: InputRequestInfo['source'],
): InputRequestInfo {
  const argument = call.arguments[0];
  const params = argument === undefined ? undefined : asObjectLiteral(file.scopeOf(call), argument);
  return { method: builder.method, mode: builder.mode, params, node: call, source };
}

/** The builder a call invokes: `inputRequired.elicit(…)` (SDK v2) or `elicitForm(…)` (runtime). */
export function builderCall(
  file: FileAnalysis,
  call: TSESTree.CallExpression,
): { builder: InputRequestBuilder; source: InputRequestInfo['source'] } | undefined {
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const name = staticKey(callee);
    const builder = name === undefined ? undefined : SDK_INPUT_REQUEST_BUILDERS[name];
    return builder !== undefined && isSdkBuilderObject(file, callee.object)
      ? { builder, source: 'sdk-builder' }
      : undefined;
  }
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const origin = file.importOf(callee);
  // The runtime's builders, imported from the package or (inside this repository) by relative path.
  if (origin === undefined || !(isRuntimeModule(origin.module) || origin.module.startsWith('.'))) {
    return undefined;
  }
  const builder = RUNTIME_INPUT_REQUEST_BUILDERS[origin.imported];
  return builder === undefined ? undefined : { builder, source: 'runtime-builder' };
}

/**
 * A call to a local function whose body is a single expression or `return`
 * (`const ask = (name) => elicitForm({…})`): the expression it returns.
 */
function returnedByLocalFunction(file: FileAnalysis, call: TSESTree.CallExpression): Node | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const definition = findVariable(file.scopeOf(callee), callee.name)?.defs[0];
  let fn: Node | undefined;
  if (definition?.type === DefinitionType.FunctionName) fn = definition.node;
  else if (definition?.type === DefinitionType.Variable && definition.parent.kind === 'const') {
    fn = definition.node.init ?? undefined;
  }
  if (
    fn === undefined ||
    (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression &&
      fn.type !== AST_NODE_TYPES.FunctionExpression &&
      fn.type !== AST_NODE_TYPES.FunctionDeclaration)
  ) {
    return undefined;
  }
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return fn.body;
  const [only] = fn.body.body;
  return fn.body.body.length === 1 && only?.type === AST_NODE_TYPES.ReturnStatement
    ? (only.argument ?? undefined)
    : undefined;
}

/** What request an expression in `inputRequests` builds: a literal, a builder call, a `const` or a helper. */
export function inputRequestInfo(file: FileAnalysis, node: Node, depth = 0): InputRequestInfo | undefined {
  if (depth > 3) return undefined;
  const current = resolveConst(file.scopeOf(node), node);
  if (current.type === AST_NODE_TYPES.ObjectExpression) {
    const scope = file.scopeOf(current);
    const method = staticString(scope, objectProperty(scope, current, 'method')?.value);
    if (method === undefined) return undefined;
    const params = asObjectLiteral(scope, objectProperty(scope, current, 'params')?.value);
    return { method, mode: modeOf(file, method, params), params, node: current, source: 'literal' };
  }
  if (current.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const built = builderCall(file, current);
  if (built !== undefined) return fromBuilder(file, current, built.builder, built.source);
  const returned = returnedByLocalFunction(file, current);
  return returned === undefined ? undefined : inputRequestInfo(file, returned, depth + 1);
}

/** One entry of an `inputRequests` object. */
export interface InputRequestEntry {
  readonly property: TSESTree.Property;
  /** The key when it is static. */
  readonly key: string | undefined;
  readonly request: InputRequestInfo | undefined;
}

/**
 * The entries of an `inputRequests` value, including those behind spreads of `const` objects and
 * conditional spreads (`...(!name && { name: ask })`).
 */
export function inputRequestEntries(file: FileAnalysis, value: Node): InputRequestEntry[] {
  const entries: InputRequestEntry[] = [];
  const visit = (node: Node, depth: number): void => {
    if (depth > 4) return;
    const current = resolveConst(file.scopeOf(node), node);
    if (current.type === AST_NODE_TYPES.LogicalExpression) {
      visit(current.right, depth + 1);
      return;
    }
    if (current.type === AST_NODE_TYPES.ConditionalExpression) {
      visit(current.consequent, depth + 1);
      visit(current.alternate, depth + 1);
      return;
    }
    if (current.type !== AST_NODE_TYPES.ObjectExpression) return;
    const scope = file.scopeOf(current);
    for (const property of current.properties) {
      if (property.type === AST_NODE_TYPES.SpreadElement) {
        visit(property.argument, depth + 1);
        continue;
      }
      const key = property.computed ? staticString(scope, property.key) : staticKey(property);
      entries.push({ property, key, request: inputRequestInfo(file, property.value) });
    }
  };
  visit(value, 0);
  return entries;
}

/** The `inputRequests` property of a result's spec, if written there. */
export function inputRequestsProperty(
  file: FileAnalysis,
  result: InputRequiredResult,
): TSESTree.Property | undefined {
  return result.spec === undefined
    ? undefined
    : objectProperty(file.scopeOf(result.spec), result.spec, 'inputRequests');
}

/** Every request an input_required result asks for. */
export function resultRequests(file: FileAnalysis, result: InputRequiredResult): InputRequestEntry[] {
  const property = inputRequestsProperty(file, result);
  return property === undefined ? [] : inputRequestEntries(file, property.value);
}

/** Elicitation params built somewhere, with the mode they ask in. */
export interface ElicitationParams {
  readonly params: TSESTree.ObjectExpression;
  /** `form` or `url`; undefined when `mode` is set to something that is not a literal. */
  readonly mode: ElicitationMode | undefined;
  /** Whether `mode` may be written in the params (builders set it themselves). */
  readonly modeWritten: boolean;
  /** Where the request is built. */
  readonly node: Node;
}

/**
 * The file's elicitations. Requests, builders and push calls are all written with
 * `elicitation/create` or an `elicit…` name, so without types a file whose text has none builds none.
 */
const ELICITATIONS = classification<ElicitationParams>('elicitation params', (file) =>
  file.typed !== undefined || file.mentions(ELICITATION_IN_TEXT)
    ? (node) =>
        node.type === AST_NODE_TYPES.ObjectExpression
          ? elicitationParamsOfObject(file, node)
          : elicitationParamsOfCall(file, node)
    : undefined,
);

/** Elicitation params an object literal or call builds. */
export function elicitationParamsOf(file: FileAnalysis, node: BuildingNode): ElicitationParams | undefined {
  return ELICITATIONS.of(file, node);
}

/** Every elicitation the file builds, in source order. */
export function fileElicitations(file: FileAnalysis): readonly ElicitationParams[] {
  return ELICITATIONS.inFile(file);
}

/** `{ method: 'elicitation/create', params: {…} }` anywhere: an input request or a push request object. */
function elicitationParamsOfObject(
  file: FileAnalysis,
  object: TSESTree.ObjectExpression,
): ElicitationParams | undefined {
  if (!mayHaveProperty(object, 'method')) return undefined;
  const info = inputRequestInfo(file, object);
  if (info?.method !== ELICITATION_METHOD || info.params === undefined) return undefined;
  return { params: info.params, mode: info.mode, modeWritten: true, node: object };
}

/** Elicitation params handed to a builder (SDK v2, runtime) or to a legacy push call (`elicitInput`). */
export function elicitationParamsOfCall(
  file: FileAnalysis,
  call: TSESTree.CallExpression,
): ElicitationParams | undefined {
  const built = builderCall(file, call);
  if (built !== undefined) {
    const info = fromBuilder(file, call, built.builder, built.source);
    if (info.method !== ELICITATION_METHOD || info.params === undefined) return undefined;
    return { params: info.params, mode: info.mode, modeWritten: false, node: call };
  }
  const pushes = callSites(file, call).some(
    (site) => site.kind === 'call' && site.category === 'elicitation',
  );
  // `elicit.call(server, params)` passes its receiver first: its params are not read here.
  if (!pushes || heldPushMember(file, call) !== undefined) return undefined;
  const params = call.arguments[0] && asObjectLiteral(file.scopeOf(call), call.arguments[0]);
  if (params === undefined) return undefined;
  return { params, mode: modeOf(file, ELICITATION_METHOD, params), modeWritten: true, node: call };
}
