import {
  DYNAMIC_SDK_IMPORT_IN_TEXT,
  isMcpFrameworkModule,
  isMcpSdkModule,
  MRTR_LOOSE_IN_TEXT,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findVariable, propertyName, unwrap } from './ast.js';
import { CORE_HINTS, hintsInText, isHint, mentionsMcpVocabulary, type HintsInText } from './text-hints.js';
import { typedServices, type TypedServices } from './typed.js';
import { DefinitionType } from './definition-type.js';

type Node = TSESTree.Node;
type Context = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;

/** Where an identifier's value comes from when it is imported (ESM, `import x = require`, CommonJS). */
export interface ImportOrigin {
  readonly module: string;
  /** The exported name, `default`, or `*` for a namespace or a whole `require()`. */
  readonly imported: string;
}

/** A named per-file cache of values of type V; see `FileAnalysis.memo`. */
export interface MemoTable<V> {
  readonly name: string;
  /** Where the file's values of this table are kept: tables are numbered as they are made. */
  readonly index: number;
  /** Only carries the value type. */
  readonly value?: V;
}

let tableCount = 0;

export function memoTable<V>(name: string): MemoTable<V> {
  return { name, index: tableCount++ };
}

/**
 * One table's values in one file. ESLint calls every rule's listener for a node before moving on,
 * so most lookups ask about the node asked about last: that one is kept beside the map.
 */
interface MemoSlot {
  readonly values: Map<Node, unknown>;
  lastNode: Node | undefined;
  lastValue: unknown;
}

/** What every rule needs to know about the file being linted; built once per file and shared. */
export interface FileAnalysis {
  readonly sourceCode: Readonly<TSESLint.SourceCode>;
  /**
   * The AST this analysis was built for. Read it rather than `sourceCode.ast` to tell files apart:
   * oxlint hands every file the same `SourceCode` object, whose `ast` is the current file's.
   */
  readonly ast: TSESTree.Program;
  /**
   * Whether any rule can find anything here: the file has types, or its text has some MCP word
   * (`MCP_VOCABULARY_IN_TEXT`, `MRTR_LOOSE_IN_TEXT`). Most files of a project have none, and every
   * rule returns no listeners for them after these two scans.
   */
  readonly mayBeMcp: boolean;
  /** The file imports an MCP SDK package (types included), so SDK-specific names are trusted. */
  readonly importsSdk: boolean;
  /**
   * The file imports an MCP framework (`agents/mcp`, `fastmcp`, `@rekog/mcp-nest`, …): options it
   * hands the framework are MCP options, and capabilities in them are MCP capabilities.
   */
  readonly importsFramework: boolean;
  /** The file mentions MRTR vocabulary (`inputRequests`, `input_required`, `inputResponses`). */
  readonly mentionsMrtr: boolean;
  /**
   * Whether the file's text matches a rule's cheap first check. The hints of `text-hints.ts` are all
   * answered by one scan of the text (`hintsInText`); any other pattern is scanned once per file for
   * all the rules that share it. Patterns must not be global or sticky (they would keep state).
   */
  mentions(pattern: RegExp): boolean;
  /** Type information, when the parser was given a program. */
  readonly typed: TypedServices | undefined;
  scopeOf(node: Node): TSESLint.Scope.Scope;
  /** The import an identifier refers to, after scope resolution; undefined for anything else. */
  importOf(identifier: TSESTree.Identifier): ImportOrigin | undefined;
  /**
   * The value `compute` gives for a node, computed once per file for every rule that asks. Use
   * this rather than a module-level WeakMap keyed by nodes: see `fileAnalysis`.
   */
  memo<V>(table: MemoTable<V>, node: Node, compute: () => V): V;
}

/**
 * The analysis of the file being linted. ESLint and oxlint lint one file at a time per thread,
 * synchronously, so one slot is enough; it is keyed on the file's AST, a new object for every file
 * (and for every pass of a fix run) in both hosts. WeakMaps keyed by AST nodes cost more than they save: their entries keep each file's
 * AST alive through V8's young-generation collections, and on the lint bench corpus one such map
 * alone added 7–23% to ESLint's CPU time.
 */
let current: FileAnalysis | undefined;

function moduleOfRequire(node: Node | null | undefined): string | undefined {
  if (node == null) return undefined;
  const call = unwrap(node);
  if (call.type === AST_NODE_TYPES.ImportExpression) return propertyName(call.source);
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  if (call.callee.type !== AST_NODE_TYPES.Identifier || call.callee.name !== 'require') return undefined;
  return propertyName(call.arguments[0]);
}

/** Whether a top-level import or re-export names a module `wanted` accepts. */
function staticImports(program: TSESTree.Program, wanted: (specifier: string) => boolean): boolean {
  for (const statement of program.body) {
    switch (statement.type) {
      case AST_NODE_TYPES.ImportDeclaration:
      case AST_NODE_TYPES.ExportAllDeclaration:
        if (wanted(statement.source.value)) return true;
        break;
      case AST_NODE_TYPES.ExportNamedDeclaration:
        if (statement.source !== null && wanted(statement.source.value)) return true;
        break;
      case AST_NODE_TYPES.TSImportEqualsDeclaration:
        if (
          statement.moduleReference.type === AST_NODE_TYPES.TSExternalModuleReference &&
          wanted(statement.moduleReference.expression.value)
        ) {
          return true;
        }
        break;
      default:
        break;
    }
  }
  return false;
}

function originOfDefinition(definition: TSESLint.Scope.Definition, name: string): ImportOrigin | undefined {
  if (definition.type === DefinitionType.ImportBinding) {
    const node = definition.node;
    if (node.type === AST_NODE_TYPES.ImportSpecifier) {
      const imported = propertyName(node.imported);
      const module =
        node.parent.type === AST_NODE_TYPES.ImportDeclaration ? node.parent.source.value : undefined;
      return imported === undefined || module === undefined ? undefined : { module, imported };
    }
    if (node.type === AST_NODE_TYPES.ImportDefaultSpecifier) {
      return { module: node.parent.source.value, imported: 'default' };
    }
    if (node.type === AST_NODE_TYPES.ImportNamespaceSpecifier) {
      return { module: node.parent.source.value, imported: '*' };
    }
    if (
      node.type === AST_NODE_TYPES.TSImportEqualsDeclaration &&
      node.moduleReference.type === AST_NODE_TYPES.TSExternalModuleReference
    ) {
      return { module: node.moduleReference.expression.value, imported: '*' };
    }
    return undefined;
  }
  if (definition.type !== DefinitionType.Variable) return undefined;
  const declarator = definition.node;
  const module = moduleOfRequire(declarator.init);
  if (module === undefined) return undefined;
  if (declarator.id.type === AST_NODE_TYPES.Identifier) return { module, imported: '*' };
  if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  for (const property of declarator.id.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const value =
      property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (value.type === AST_NODE_TYPES.Identifier && value.name === name) {
      const imported = propertyName(property.key);
      return imported === undefined ? undefined : { module, imported };
    }
  }
  return undefined;
}

/**
 * Where a binding's value may come from a `require()` (an `import x = require()` too) or an
 * `import()`; a comment between `import` and its parenthesis counts.
 */
const REQUIRE_OR_DYNAMIC_IMPORT_IN_TEXT = /\brequire\b|\bimport\s*(?:\(|\/[*/])/;

/**
 * The local names behind which `importOf` can find an import, or undefined when any name can hide
 * one: the names top-level import declarations bind, unless the text has a `require()` or an
 * `import()` (which bind through variables, in any scope) or a module, namespace or `declare
 * global` block (whose body can import). Most identifiers asked about are no import's, and this
 * spares them a scope lookup.
 */
function importedNames(ast: TSESTree.Program, text: string): ReadonlySet<string> | undefined {
  if (REQUIRE_OR_DYNAMIC_IMPORT_IN_TEXT.test(text)) return undefined;
  const names = new Set<string>();
  for (const statement of ast.body) {
    const declaration =
      statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declaration?.type === AST_NODE_TYPES.TSModuleDeclaration) return undefined;
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration) continue;
    for (const specifier of statement.specifiers) names.add(specifier.local.name);
  }
  return names;
}

/** The shared per-file analysis for a rule context, built on first use. */
export function fileAnalysis(context: Context): FileAnalysis {
  const sourceCode = context.sourceCode;
  const ast = sourceCode.ast;
  if (current?.ast === ast) return current;

  const text = sourceCode.text;
  const slots: (MemoSlot | undefined)[] = [];
  const scanned = new Map<RegExp, boolean>();
  let hints: HintsInText | undefined;
  /** `importedNames`, computed when `importOf` is first asked (null until then). */
  let imported: ReadonlySet<string> | undefined | null = null;
  const mentions = (pattern: RegExp): boolean => {
    if (isHint(pattern)) {
      hints ??= hintsInText(text);
      if (hints.covered.has(pattern)) return hints.found.has(pattern);
    }
    let found = scanned.get(pattern);
    if (found === undefined) {
      found = pattern.test(text);
      scanned.set(pattern, found);
    }
    return found;
  };
  const typed = typedServices(sourceCode);
  const mayBeMcp = typed !== undefined || mentionsMcpVocabulary(text) || MRTR_LOOSE_IN_TEXT.test(text);
  const analysis: FileAnalysis = {
    sourceCode,
    ast,
    mayBeMcp,
    importsSdk:
      mayBeMcp &&
      mentions(CORE_HINTS.SDK_MODULE) &&
      (staticImports(ast, isMcpSdkModule) || DYNAMIC_SDK_IMPORT_IN_TEXT.test(text)),
    importsFramework:
      mayBeMcp && mentions(CORE_HINTS.FRAMEWORK_MODULE) && staticImports(ast, isMcpFrameworkModule),
    mentionsMrtr: mayBeMcp && mentions(CORE_HINTS.MRTR),
    mentions,
    typed,
    scopeOf: (node) => sourceCode.getScope(node),
    importOf(identifier) {
      if (imported === null) imported = importedNames(ast, text);
      if (imported !== undefined && !imported.has(identifier.name)) return undefined;
      const variable = findVariable(sourceCode.getScope(identifier), identifier.name);
      const definition = variable?.defs[0];
      return definition === undefined ? undefined : originOfDefinition(definition, identifier.name);
    },
    memo<V>(table: MemoTable<V>, node: Node, compute: () => V): V {
      let slot = slots[table.index];
      if (slot === undefined) {
        slot = { values: new Map(), lastNode: undefined, lastValue: undefined };
        slots[table.index] = slot;
      }
      if (slot.lastNode === node) return slot.lastValue as V;
      let value: V;
      if (slot.values.has(node)) {
        value = slot.values.get(node) as V;
      } else {
        value = compute();
        slot.values.set(node, value);
      }
      slot.lastNode = node;
      slot.lastValue = value;
      return value;
    },
  };
  current = analysis;
  return analysis;
}
