import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import type { FileContext } from '../../analysis/file-context.js';
import type { ImportRequest } from '../../edits/imports.js';
import { REQUEST_STATE_RULE_ID } from '../../analysis/site-category.js';
import { markerText } from '../../edits/markers.js';
import { braces, semicolon, type SourceStyle } from '../../edits/source-style.js';
import { keysAdvice, keysReason, perProcessKeyWritten, THEN_DELETE } from '../shared/state-keys.js';
import type { Generation } from './eligible-handlers.js';
import type { HandlerRewrite } from './replay-handler.js';
import type { ServedTransport } from './served-transport.js';

// The `new MrtrRuntime({ … })` an adapter the codemod declares runs on, and what its marker says.
// Keys: read as shared/state-keys.ts says (never a throw at import; a per-process key for a server
// served over stdio only; one read per module that also seals state by hand).
// Single use: a step runs once only if no retry can open its state twice, so code that journals
// steps redeems each state at most once, in memory for one process.

/** What the runtime is configured with. */
export interface RuntimeChoice {
  readonly transport: ServedTransport;
  /** A handler of the adapter journals a step (`round.step`). */
  readonly singleUse: boolean;
}

export const ADAPTER_MODULE: Readonly<Record<Generation, string>> = {
  v1: '@mcp-mrtr/runtime/sdk-v1',
  v2: '@mcp-mrtr/runtime/sdk-v2',
};

export const ADAPTER_CLASS: Readonly<Record<Generation, string>> = { v1: 'SdkV1Adapter', v2: 'SdkV2Adapter' };

/** Whether a rewrite journals a step: the code it writes calls `round.step(…)`. */
export function journalsSteps(rewrite: HandlerRewrite): boolean {
  const written = [...rewrite.edits, ...[...rewrite.questions.values()].flat()];
  return written.some((edit) => /\.step\(/.test(edit.text));
}

/** The option a runtime whose handlers journal steps is given, and the store class it names. */
export const SINGLE_USE_STORE = 'MemoryRedemptionStore';

/** The options of `new MrtrRuntime({ … })`, one per entry, and the runtime names they use. */
function runtimeOptions(
  context: FileContext,
  choice: RuntimeChoice,
  keyring: string,
): { readonly options: string[]; readonly imports: ImportRequest[] } {
  const options = [`keyring: ${keyring}`];
  const imports = [];
  if (choice.singleUse) {
    const store = context.importFor(RUNTIME_PACKAGE, SINGLE_USE_STORE);
    imports.push(store);
    options.push(`singleUse: new ${store.local}()`);
  }
  return { options, imports: [...imports, context.importFor(RUNTIME_PACKAGE, 'MrtrRuntime')] };
}

/** Beyond this width the declaration is broken over lines, as a formatter would. */
const LINE_WIDTH = 100;

/**
 * `<head>new MrtrRuntime({ <options> })<tail>` on one line when it fits, else broken as a formatter
 * would: the runtime on a line of its own, then each option on one.
 */
export function runtimeDeclarationLines(
  style: SourceStyle,
  head: string,
  runtimeClass: string,
  options: readonly string[],
  tail: string,
): string[] {
  const oneLine = `new ${runtimeClass}(${braces(style, options.join(', '))})`;
  const unit = style.indentUnit;
  if (head.length + oneLine.length + tail.length <= LINE_WIDTH) return [`${head}${oneLine}${tail}`];
  if (unit.length + oneLine.length + 1 <= LINE_WIDTH) return [head, `${unit}${oneLine},`, tail];
  return [
    head,
    `${unit}new ${runtimeClass}({`,
    ...options.map((option) => `${unit}${unit}${option},`),
    `${unit}}),`,
    tail,
  ];
}

/**
 * `const <name> = new SdkV1Adapter(new MrtrRuntime({ keyring: <keyring>, … }));` under its keys
 * marker, and the names it imports, with `notes` as further markers; `exported` for an adapter the
 * modules registering handlers on the server import.
 */
export function adapterDeclaration(
  context: FileContext,
  generation: Generation,
  name: string,
  choice: RuntimeChoice,
  keyring: string,
  exported: boolean,
  notes: readonly string[] = [],
): { readonly lines: string[]; readonly imports: ImportRequest[] } {
  const style = context.style;
  const adapter = context.importFor(ADAPTER_MODULE[generation], ADAPTER_CLASS[generation]);
  const runtime = runtimeOptions(context, choice, keyring);
  const runtimeClass = runtime.imports.at(-1)!.local;
  const head = `${exported ? 'export ' : ''}const ${name} = new ${adapter.local}(`;
  const declaration = runtimeDeclarationLines(
    style,
    head,
    runtimeClass,
    runtime.options,
    `)${semicolon(style)}`,
  );
  return {
    lines: [
      `// ${markerText(REQUEST_STATE_RULE_ID, deploymentTodo(choice))}`,
      ...notes.map((note) => `// ${markerText(REQUEST_STATE_RULE_ID, note)}`),
      ...(exported
        ? ['/** The MRTR adapter of this server: the modules registering handlers on it import it. */']
        : []),
      ...declaration,
    ],
    imports: [...runtime.imports, adapter],
  };
}

export const SINGLE_USE_ADVICE =
  'Its handlers journal steps, so each requestState opens once (singleUse) and a retry cannot run a step again: MemoryRedemptionStore holds for one process; with several instances, pass a RedisRedemptionStore on the Redis they share (docs/runtime.md).';

/** The todo of the adapter's keys marker: where the keys come from, and the single-use store. */
export function deploymentTodo(choice: RuntimeChoice): string {
  return [
    ...keysAdvice(choice.transport),
    ...(choice.singleUse ? [SINGLE_USE_ADVICE] : []),
    THEN_DELETE,
  ].join(' ');
}

/**
 * Why the keys are the deployment's to set, what the codemod assumed about the transport, and
 * why the module has an adapter of its own (`ownAdapter`) when its server is created elsewhere.
 */
export function deploymentReason(transport: ServedTransport, ownAdapter?: string): string {
  const keys = keysReason(transport);
  return ownAdapter === undefined ? keys : `${keys}; ${ownAdapter}`;
}

/** The choice an earlier run wrote, read back from its adapter's declaration and the keys it reads. */
export function choiceWritten(declaration: string, keys: string, transport: ServedTransport): RuntimeChoice {
  const perProcess = perProcessKeyWritten(keys);
  let written = transport;
  if (perProcess && transport.kind !== 'stdio-only')
    written = { kind: 'stdio-only', where: 'as an earlier run found' };
  if (!perProcess && transport.kind === 'stdio-only')
    written = { kind: 'unknown', why: 'an earlier run wrote Keyring.fromEnv() without whenUnset' };
  return { transport: written, singleUse: /singleUse\s*:/.test(declaration) };
}
