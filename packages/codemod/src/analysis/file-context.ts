import { ts } from 'ts-morph';
import { existingImportLocal, type ImportRequest } from '../edits/imports.js';
import { indentationAt, lineAndColumn, lineStartOf, startsItsLine } from '../edits/line-ranges.js';
import type { MarkerAnchor } from '../edits/markers.js';
import type { SourceStyle } from '../edits/source-style.js';
import type { TextEdit } from '../edits/text-edit.js';
import type { RunView } from './run-view.js';
import { resolveMember, type MemberResolution } from './sdk-resolution.js';
import { importsMcpSdk } from './sdk-imports.js';
import { serverChainOwner, syntacticOwner } from './syntactic-owner.js';
import { ruleIdOf, type SiteCategory } from './site-category.js';
import type { Rewrite, Site } from './site.js';
import { isStatement } from './syntax.js';

/** How migrated logging calls are written. */
export type LoggingTarget = 'stderr' | 'otel';

/** How push questions in handlers are migrated (the mrtr-handlers transform). */
export interface HandlerOptions {
  /** `auto`: explicit for straight-line questions before any side effect, replay otherwise; `explicit`: never replay. */
  readonly style: 'auto' | 'explicit' | 'replay';
  /** `manual` leaves sampling requests for a person instead of turning them into MRTR sampling. */
  readonly sampling: 'rewrite' | 'manual';
  readonly roots: 'rewrite' | 'manual';
  /** How many helper calls below its handler a question may sit. */
  readonly depth: number;
}

export const DEFAULT_HANDLER_OPTIONS: HandlerOptions = {
  style: 'auto',
  sampling: 'rewrite',
  roots: 'rewrite',
  depth: 3,
};

/**
 * Counts of member accesses a transform needed types for, by what decided them: the checker's
 * types, syntax standing in where the type is `any`, or nothing (left by hand where it mattered).
 */
export interface ReceiverStats {
  resolved: number;
  fromSyntax: number;
  unresolved: number;
}

/** What a transform sees of one file while analysing it. */
export class FileContext {
  readonly #reservedLocals = new Map<string, string>();
  readonly #declaredNames: ReadonlySet<string>;
  /** Calls whose receiver only syntax showed to be the SDK's. */
  readonly #fromSyntax: ts.Node[] = [];

  constructor(
    readonly path: string,
    readonly sourceFile: ts.SourceFile,
    readonly checker: ts.TypeChecker,
    readonly style: SourceStyle,
    readonly logging: LoggingTarget,
    /** The `name` of the nearest package.json, for names such as the OpenTelemetry scope. */
    readonly packageName: string | undefined,
    readonly receivers: ReceiverStats,
    /** Whether a receiver whose type is unresolved may be taken to be the SDK's from syntax. */
    readonly syntacticEvidence = false,
    readonly handlers: HandlerOptions = DEFAULT_HANDLER_OPTIONS,
    /** The rest of the run, for rewrites that span files; absent when a file is analysed alone. */
    readonly run?: RunView,
  ) {
    this.#declaredNames = collectIdentifierNames(sourceFile);
  }

  get text(): string {
    return this.sourceFile.text;
  }

  /** Counts one type question by what answered it, for the project's type-information note. */
  countResolution(answer: 'types' | 'syntax' | 'none'): void {
    if (answer === 'types') this.receivers.resolved++;
    else if (answer === 'syntax') this.receivers.fromSyntax++;
    else this.receivers.unresolved++;
  }

  /**
   * Resolves a member access, receiver by receiver: by its type when the checker gives one, else
   * by syntax. With {@link FileContext.syntacticEvidence}, a receiver typed `any` that was built
   * by an SDK class (see `syntacticOwner`) resolves to the SDK, and the sites around it say so.
   * So does, in a file that imports the SDK, an untyped `agent.server.server` (see
   * `serverChainOwner`). Whatever other receivers of the project resolve to does not matter.
   */
  resolveMember(access: ts.PropertyAccessExpression): MemberResolution {
    const resolution = resolveMember(this.checker, access);
    if (resolution.kind !== 'unresolved') {
      this.countResolution('types');
      return resolution;
    }
    const owner =
      (this.syntacticEvidence ? syntacticOwner(this.checker, access.expression) : undefined) ??
      (importsMcpSdk(this.sourceFile) ? serverChainOwner(access.expression) : undefined);
    if (owner === undefined || owner === 'other') {
      this.countResolution('none');
      return resolution;
    }
    this.#fromSyntax.push(access.parent);
    this.countResolution('syntax');
    return { kind: 'sdk', name: access.name.text, container: owner.split('.')[0] };
  }

  /** Whether sites over `node` rest on syntactic evidence rather than types. */
  isFromSyntax(node: ts.Node): boolean {
    return this.#fromSyntax.some((marked) => marked.pos < node.end && node.pos < marked.end);
  }

  /** Sites over `node` rest on syntactic evidence another file's analysis found. */
  noteFromSyntax(node: ts.Node): void {
    this.#fromSyntax.push(node);
  }

  /**
   * The identifier to use for `name` from `module`: the local name of an existing import, else
   * `name` itself, else `name2`, `name3`… when the file already uses `name` for something else.
   */
  importFor(module: string, name: string): ImportRequest {
    const key = `${module}\0${name}`;
    const local =
      this.#reservedLocals.get(key) ??
      existingImportLocal(this.sourceFile, module, name) ??
      this.#unusedName(name);
    this.#reservedLocals.set(key, local);
    return { module, name, local };
  }

  /**
   * The identifier for a declaration a rewrite adds to the file: `name`, or `name2`, `name3`… when
   * the file, an import or another planned declaration already uses it. Asking again for the same
   * `name` gives the same identifier.
   */
  declarationName(name: string): string {
    const key = `\0declaration\0${name}`;
    const local = this.#reservedLocals.get(key) ?? this.#unusedName(name);
    this.#reservedLocals.set(key, local);
    return local;
  }

  #unusedName(name: string): string {
    const taken = new Set(this.#reservedLocals.values());
    let local = name;
    for (let n = 2; this.#declaredNames.has(local) || taken.has(local); n++) local = `${name}${n}`;
    return local;
  }

  /** The one-based line a node starts on. */
  lineOf(node: ts.Node): number {
    return lineAndColumn(this.text, node.getStart(this.sourceFile)).line;
  }

  /** The text of a node as written (without leading trivia). */
  textOf(node: ts.Node): string {
    return this.text.slice(node.getStart(this.sourceFile), node.end);
  }

  /**
   * Where a marker for a site goes: above the nearest enclosing statement, property or argument
   * that starts its own line, or inline before the statement when none does.
   */
  markerAnchor(node: ts.Node): MarkerAnchor {
    for (let current: ts.Node | undefined = node; current !== undefined; current = current.parent) {
      const start = current.getStart(this.sourceFile);
      const listElement =
        current.parent !== undefined &&
        (ts.isObjectLiteralExpression(current.parent) ||
          ts.isArrayLiteralExpression(current.parent) ||
          ((ts.isCallExpression(current.parent) || ts.isNewExpression(current.parent)) &&
            (current.parent.arguments?.includes(current as ts.Expression) ?? false)));
      if ((isStatement(current) || listElement) && startsItsLine(this.text, start)) {
        return {
          kind: 'line',
          lineStart: lineStartOf(this.text, start),
          indent: indentationAt(this.text, start),
        };
      }
      if (isStatement(current) && (current.parent === undefined || ts.isSourceFile(current.parent)))
        return { kind: 'inline', offset: start };
    }
    return { kind: 'inline', offset: node.getStart(this.sourceFile) };
  }

  /** A site this transform can rewrite. */
  rewriteSite(
    base: SiteBase,
    edits: readonly TextEdit[],
    options: {
      imports?: readonly ImportRequest[];
      packages?: readonly string[];
    } = {},
  ): Site {
    const rewrite: Rewrite = {
      edits,
      imports: options.imports ?? [],
      packages: options.packages ?? [],
    };
    return { ...this.#site(base), rewrite };
  }

  /** A site left for manual work. */
  manualSite(base: SiteBase, reason: string): Site {
    return { ...this.#site(base), reason };
  }

  #site(base: SiteBase): Site {
    const start = base.node.getStart(this.sourceFile);
    const { line, column } = lineAndColumn(this.text, start);
    return {
      ...(this.isFromSyntax(base.node) ? { evidence: 'syntax' as const } : {}),
      transform: base.transform,
      category: base.category,
      ruleId: ruleIdOf(base.category),
      kind: base.kind,
      file: this.path,
      start,
      line,
      column,
      todo: base.todo,
      anchor: this.markerAnchor(base.node),
    };
  }
}

/** What every site says about itself. */
export interface SiteBase {
  readonly transform: string;
  readonly category: SiteCategory;
  readonly kind: string;
  readonly node: ts.Node;
  readonly todo: string;
}

function collectIdentifierNames(sourceFile: ts.SourceFile): ReadonlySet<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    // A member name (`server.createMessage`, `{ listRoots: … }`) binds nothing an import could clash with.
    const memberName =
      node.parent !== undefined &&
      (ts.isPropertyAccessExpression(node.parent) || ts.isPropertyAssignment(node.parent)) &&
      node.parent.name === node;
    if (ts.isIdentifier(node) && !memberName) names.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return names;
}
