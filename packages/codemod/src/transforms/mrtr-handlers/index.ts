import { CATEGORY_INFO, RUNTIME_PACKAGE, SENSITIVE_FORM_FIELD_GUIDANCE } from '@mcp-mrtr/core';
import type { ts } from 'ts-morph';
import type { FileContext, SiteBase } from '../../analysis/file-context.js';
import { SENSITIVE_FIELD_RULE_ID } from '../../analysis/site-category.js';
import type { RequiredUnit, Site } from '../../analysis/site.js';
import { forEachDescendant } from '../../analysis/syntax.js';
import type { ImportRequest } from '../../edits/imports.js';
import type { TextEdit } from '../../edits/text-edit.js';
import type { Transform } from '../../transform.js';
import {
  existingAdapter,
  pendingAdapterKeysSite,
  pendingServerOptionsSites,
  planAdapterSetup,
} from './adapter-setup.js';
import {
  nameOfFunction,
  type EligibleHandler,
  type Generation,
  type HelperFunction,
} from './eligible-handlers.js';
import { pendingSingleUseSite } from './earlier-single-use.js';
import { placeIn, unitOf } from './cross-file-calls.js';
import { journalsSteps } from './runtime-construction.js';
import { ForeignHelperCalls } from './foreign-helpers.js';
import { setupCarrier } from './setup-carrier.js';
import {
  PlacementFinder,
  type HandlerPlacement,
  type Helper,
  type HelperPlacement,
  type Placement,
  type TestCallerPlacement,
} from './placement.js';
import { builtRequest } from './built-request.js';
import { builtRequestReason, deprecatedInputRequestBuilder } from './input-request-builders.js';
import {
  asHeldPushCall,
  asksAsTask,
  asPushCall,
  isUrlElicitationRequiredError,
  type HeldPushCall,
  type PushCall,
} from './push-calls.js';
import { freshName, type Asking, type HandlerRewrite } from './replay-handler.js';
import { takenSenderReason } from './taken-senders.js';
import { typeImportEdits } from './type-imports.js';
import { planReplayHelper } from './replay-helper.js';
import { sensitiveFields } from './sensitive-fields.js';
import { planHandlerInStyle, type WrittenStyle } from './style-choice.js';
import { TRANSFORM_ID } from './transform-id.js';
import { returnTypeWidening } from './return-type-widening.js';
import { roundArgumentEdit } from './round-parameter.js';
import { removedNotifiers } from './url-mode-question.js';
import { urlRequiredEdits } from './url-required-error.js';

const URL_MODE_TODO =
  'Return input_required with an elicitUrl() request and, on the retry, complete the call only if your own record of the out-of-band step (see @mcp-mrtr/runtime/url-mode) says it finished; otherwise ask again.';

const NOTIFIER_REMOVED =
  'Removed with the URL-mode rewrite: 2026-07-28 has no notifications/elicitation/complete; the client retries and the handler checks completion then.';

/** Where the runtime's test kit is imported from. */
const TEST_KIT_MODULE = `${RUNTIME_PACKAGE}/testing`;

const TEST_CALLER_TODO =
  "Pass pushRound(server) from @mcp-mrtr/runtime/testing where the helper now takes its round: the test's server answers its questions as before.";

const HELPER_CALLER_TODO =
  'Register the handler through the runtime adapter (a helper: take the round in place of the server, extra or ctx it asks through, else as the first parameter) and pass its round to the helpers it calls.';

const TASK_REASON =
  'it asks the client to run the request as a task (params.task), and may be answered with a CreateTaskResult, which an MRTR input request has no equivalent for; ask without the task, or migrate it by hand';

const SECRET_REASON = 'the form asks for a secret, which must never pass through the client: use URL mode';

interface Found {
  readonly push: PushCall;
  readonly placement: Placement;
}

function todoOf(push: Pick<PushCall, 'shape' | 'category'>): string {
  return push.shape === 'elicit-url' ? URL_MODE_TODO : CATEGORY_INFO[push.category].guidance;
}

/** Why a push member invoked through `.call` or `.apply`, or bound and passed on, is left by hand. */
function heldPushReason(context: FileContext, held: HeldPushCall): string {
  const receiver = context.textOf(held.receiver);
  const use =
    held.invoker === 'bind'
      ? 'bound and passed on, so the codemod cannot follow where it asks'
      : `invoked through .${held.invoker}(), which the codemod does not rewrite`;
  return `${held.member}() is read off ${receiver} as a value (line ${context.lineOf(held.read)}) and ${use}; call ${receiver}.${held.member}(…) directly where it asks and run again`;
}

function base(push: Pick<PushCall, 'call' | 'shape' | 'category'>, kind: string): SiteBase {
  return { transform: TRANSFORM_ID, category: push.category, kind, node: push.call, todo: todoOf(push) };
}

/** The handlers and helpers of a file with what they ask, in source order. */
interface Plan {
  readonly handlers: Map<HelperFunction, { handler: EligibleHandler; askings: Asking[] }>;
  /** Each helper with its questions and helper calls, and the handlers and helpers calling it. */
  readonly helpers: Map<HelperFunction, { helper: Helper; askings: Asking[]; callers: HelperFunction[] }>;
  /**
   * What each function's rewrite needs besides itself: the helpers it calls, and its callers in
   * other files (see engine/linked-rewrites.ts).
   */
  readonly requires: Map<HelperFunction, RequiredUnit[]>;
  /** This file's tests calling a helper, which pass the test kit's round. */
  readonly tests: TestCall[];
}

/** A helper's call in a test's body of this file. */
interface TestCall {
  readonly call: ts.CallExpression;
  readonly helper: Helper;
  readonly caller: TestCallerPlacement;
}

function callerFunction(placement: HandlerPlacement | HelperPlacement): HelperFunction {
  return placement.kind === 'handler' ? placement.handler.callback : placement.helper.fn;
}

/** The function a helper's call runs in: a handler, a helper, or a test's body. */
function callerOf(placement: HandlerPlacement | HelperPlacement | TestCallerPlacement): ts.Node {
  return placement.kind === 'test' ? placement.fn : callerFunction(placement);
}

function group(context: FileContext, found: readonly Found[], foreign: readonly HelperPlacement[]): Plan {
  const plan: Plan = { handlers: new Map(), helpers: new Map(), requires: new Map(), tests: [] };
  const require = (fn: HelperFunction, unit: RequiredUnit) => {
    const units = plan.requires.get(fn) ?? [];
    if (!units.some((each) => each.unit === unit.unit)) units.push(unit);
    plan.requires.set(fn, units);
  };
  const here = (fn: ts.Node) => fn.getSourceFile() === context.sourceFile;
  const handlerEntry = (handler: EligibleHandler) => {
    let entry = plan.handlers.get(handler.callback);
    if (entry === undefined) plan.handlers.set(handler.callback, (entry = { handler, askings: [] }));
    return entry;
  };
  const helperEntry = (placement: HelperPlacement) => {
    const existing = plan.helpers.get(placement.helper.fn);
    if (existing !== undefined) return existing;
    const entry = { helper: placement.helper, askings: [] as Asking[], callers: [] as HelperFunction[] };
    plan.helpers.set(placement.helper.fn, entry);
    placement.helper.calls.forEach((call, index) => {
      const caller = placement.callers[index]!;
      const asking: Asking = { kind: 'helper-call', call, helper: placement.helper };
      // A caller in another file is planned by that file's analysis; the rewrites are linked.
      if (!here(callerOf(caller))) {
        require(placement.helper.fn, {
          unit: unitOf(callerOf(caller)),
          label: `its caller at ${placeIn(context, context.run!.contextOf(call.getSourceFile()), call)}`,
        });
        return;
      }
      if (caller.kind === 'test') {
        require(placement.helper.fn, {
          unit: unitOf(caller.fn),
          label: `its test at ${placeIn(context, context, call)}`,
        });
        plan.tests.push({ call, helper: placement.helper, caller });
        return;
      }
      require(callerFunction(caller), {
        unit: unitOf(placement.helper.fn),
        label: labelOf(placement.helper.fn),
      });
      if (caller.kind === 'handler') {
        handlerEntry(caller.handler).askings.push(asking);
        entry.callers.push(caller.handler.callback);
      } else {
        helperEntry(caller).askings.push(asking);
        entry.callers.push(caller.helper.fn);
      }
    });
    return entry;
  };
  for (const { push, placement } of found) {
    if (placement.kind === 'handler') handlerEntry(placement.handler).askings.push({ kind: 'push', push });
    if (placement.kind === 'helper') helperEntry(placement).askings.push({ kind: 'push', push });
  }
  // This file's calls of helpers other files export: the callers pass them their round.
  for (const placement of foreign) {
    placement.helper.calls.forEach((call, index) => {
      const caller = placement.callers[index]!;
      if (!here(callerOf(caller))) return;
      if (caller.kind === 'test') {
        plan.tests.push({ call, helper: placement.helper, caller });
        return;
      }
      const asking: Asking = { kind: 'helper-call', call, helper: placement.helper };
      const label = `${labelOf(placement.helper.fn)} in ${placeIn(context, context.run!.contextOf(placement.helper.fn.getSourceFile()), placement.helper.fn)}`;
      require(callerFunction(caller), { unit: unitOf(placement.helper.fn), label });
      if (caller.kind === 'handler') handlerEntry(caller.handler).askings.push(asking);
      else helperEntry(caller).askings.push(asking);
    });
  }
  for (const entry of [...plan.handlers.values(), ...plan.helpers.values()])
    entry.askings.sort((a, b) => start(a) - start(b));
  return plan;
}

function labelOf(fn: HelperFunction): string {
  return `${nameOfFunction(fn)?.text ?? 'a function'}()`;
}

function start(asking: Asking): number {
  return asking.kind === 'push' ? asking.push.call.pos : asking.call.pos;
}

/**
 * Plans every handler and helper; a helper whose caller cannot be rewritten, and a handler whose
 * helper cannot, stay manual with the reason, until nothing changes.
 */
function planAll(
  context: FileContext,
  plan: Plan,
  adapters: (generation: Generation) => string | undefined,
): {
  rewrites: Map<HelperFunction, HandlerRewrite>;
  reasons: Map<HelperFunction, string>;
  styles: Map<HelperFunction, WrittenStyle>;
} {
  const reasons = new Map<HelperFunction, string>();
  const styles = new Map<HelperFunction, WrittenStyle>();
  const rewrites = new Map<HelperFunction, HandlerRewrite>();
  for (const [fn, { helper, askings }] of plan.helpers) {
    const planned = planReplayHelper(context, helper, askings);
    if (typeof planned === 'string') reasons.set(fn, planned);
    else rewrites.set(fn, planned);
  }
  for (const [fn, { handler, askings }] of plan.handlers) {
    const adapter = adapters(handler.generation);
    const planned =
      adapter === undefined
        ? 'the file has no statement after its imports to set the runtime up before'
        : planHandlerInStyle(context, handler, askings, adapter);
    if (typeof planned === 'string') {
      reasons.set(fn, planned);
      continue;
    }
    rewrites.set(fn, planned.rewrite);
    styles.set(fn, planned.style);
  }
  // A failure travels along the chain with its first cause, not a reason per level.
  const causes = new Map<HelperFunction, string>();
  const fail = (fn: HelperFunction, link: string, failed: HelperFunction) => {
    const cause = causes.get(failed) ?? reasons.get(failed)!;
    causes.set(fn, cause);
    reasons.set(fn, `${link} stays manual: ${cause}`);
    rewrites.delete(fn);
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const [fn, { callers }] of plan.helpers) {
      if (reasons.has(fn)) continue;
      const failed = callers.find((caller) => reasons.has(caller));
      if (failed === undefined) continue;
      fail(
        fn,
        plan.handlers.has(failed) ? 'a handler calling it' : `${labelOf(failed)}, which calls it,`,
        failed,
      );
      changed = true;
    }
    for (const [fn, { askings }] of [...plan.handlers, ...plan.helpers]) {
      if (reasons.has(fn)) continue;
      const failed = askings.find((asking) => asking.kind === 'helper-call' && reasons.has(asking.helper.fn));
      if (failed?.kind !== 'helper-call') continue;
      fail(fn, `${labelOf(failed.helper.fn)}, a helper it calls,`, failed.helper.fn);
      changed = true;
    }
  }
  return { rewrites, reasons, styles };
}

interface UrlThrow {
  readonly node: ts.NewExpression;
  readonly placement: Placement;
}

/** A rewritten throw returns `round.inputRequired(…)`: the explicit style's shape, hence its kind. */
function urlThrowBase(node: ts.NewExpression, rewritten = false): SiteBase {
  return {
    transform: TRANSFORM_ID,
    category: 'elicitation',
    kind: rewritten ? 'url-elicitation-required-error-explicit' : 'url-elicitation-required-error',
    node,
    todo: URL_MODE_TODO,
  };
}

/**
 * Plans each thrown UrlElicitationRequiredError in an eligible handler (the handler joins the
 * plan, even with no question of its own); the rest become manual sites that say why.
 */
function planUrlThrows(
  context: FileContext,
  plan: Plan,
  urlThrows: readonly UrlThrow[],
  manual: Site[],
): Map<ts.NewExpression, { fn: HelperFunction; edits: TextEdit[]; imports: ImportRequest[] }> {
  const planned = new Map<
    ts.NewExpression,
    { fn: HelperFunction; edits: TextEdit[]; imports: ImportRequest[] }
  >();
  for (const { node, placement } of urlThrows) {
    if (placement.kind !== 'handler') {
      const reason = placement.kind === 'manual' ? placement.reason : 'it is thrown in a helper';
      manual.push(context.manualSite(urlThrowBase(node), `UrlElicitationRequiredError: ${reason}`));
      continue;
    }
    const { handler } = placement;
    const edits = urlRequiredEdits(context, node, handler, freshName(handler.callback, 'round'));
    if (typeof edits === 'string') {
      manual.push(context.manualSite(urlThrowBase(node), edits));
      continue;
    }
    if (!plan.handlers.has(handler.callback)) plan.handlers.set(handler.callback, { handler, askings: [] });
    planned.set(node, { fn: handler.callback, ...edits });
  }
  return planned;
}

/**
 * Finds every push elicitation, sampling and roots request, classifies where it runs, and turns
 * those in eligible handlers (and the helpers only they call) into questions on the runtime's
 * journaled `round`; the rest are manual sites that say why.
 */
function analyse(context: FileContext): Site[] {
  const sites: Site[] = [];
  // An earlier adapter's keys site, which its setup replaces when it turns single use on.
  const pendingKeys = new Map<Generation, Site>();
  for (const generation of ['v1', 'v2'] as const) {
    const existing = existingAdapter(context.sourceFile, generation);
    if (existing === undefined) continue;
    const pending = pendingAdapterKeysSite(context, existing);
    if (pending !== undefined) {
      pendingKeys.set(generation, pending);
      sites.push(pending);
    }
    const singleUse = pendingSingleUseSite(context, existing);
    if (singleUse !== undefined) sites.push(singleUse);
    sites.push(...pendingServerOptionsSites(context, existing));
  }
  const finder = PlacementFinder.for(context);
  const foreignCalls = new ForeignHelperCalls(context);
  const foreign = new Set<HelperPlacement>();
  const found: Found[] = [];
  const urlThrows: UrlThrow[] = [];
  const manual: Site[] = [];
  forEachDescendant(context.sourceFile, (node) => {
    const foreignHelper = foreignCalls.placementOf(node);
    if (foreignHelper !== undefined) foreign.add(foreignHelper);
    if (isUrlElicitationRequiredError(context, node)) {
      urlThrows.push({ node, placement: finder.ofThrow(node) });
      return;
    }
    const held = asHeldPushCall(context, node);
    if (held !== undefined) {
      manual.push(context.manualSite(base(held, held.shape), heldPushReason(context, held)));
      return;
    }
    const push = asPushCall(context, node);
    if (push === undefined) {
      const built = deprecatedInputRequestBuilder(context, node);
      if (built !== undefined)
        manual.push(
          context.manualSite(
            {
              transform: TRANSFORM_ID,
              category: built.category,
              kind: `${built.category}-input-request`,
              node: built.call,
              todo: built.guidance,
            },
            builtRequestReason(context, built),
          ),
        );
      return;
    }
    if (asksAsTask(push)) {
      manual.push(context.manualSite(base(push, push.shape), TASK_REASON));
      return;
    }
    const built = builtRequest(context, push);
    if (typeof built === 'string') {
      manual.push(context.manualSite(base(push, push.shape), built));
      return;
    }
    const sender = takenSenderReason(context, push);
    if (sender !== undefined) {
      manual.push(context.manualSite(base(push, push.shape), sender));
      return;
    }
    const secrets = push.shape === 'elicit-form' ? sensitiveFields(push.params) : [];
    if (secrets.length > 0) {
      manual.push(context.manualSite(base(push, 'secret-form'), SECRET_REASON));
      for (const field of secrets) {
        const site = context.manualSite(
          {
            transform: TRANSFORM_ID,
            category: 'elicitation',
            kind: 'sensitive-form-field',
            node: field.node,
            todo: SENSITIVE_FORM_FIELD_GUIDANCE,
          },
          `form field "${field.name}" asks for a secret`,
        );
        manual.push({ ...site, ruleId: SENSITIVE_FIELD_RULE_ID });
      }
      return;
    }
    if (
      (push.category === 'sampling' || push.category === 'roots') &&
      context.handlers[push.category] === 'manual'
    ) {
      manual.push(
        context.manualSite(
          base(push, push.shape),
          `--${push.category} manual leaves ${push.category} requests for a person`,
        ),
      );
      return;
    }
    found.push({ push, placement: finder.of(push.call, push.receiver) });
  });

  const plan = group(context, found, [...foreign]);
  const throwEdits = planUrlThrows(context, plan, urlThrows, manual);
  const setups = new Map<Generation, ReturnType<typeof planAdapterSetup>>();
  const adapters = (generation: Generation) => {
    if (!setups.has(generation))
      setups.set(
        generation,
        planAdapterSetup(
          context,
          generation,
          [...plan.handlers.values()].map((entry) => entry.handler),
        ),
      );
    return setups.get(generation)?.name;
  };
  const { rewrites, reasons, styles } = planAll(context, plan, adapters);
  // Handlers registering through an adapter another module sets up need that module rewritten too.
  for (const [fn, { handler }] of plan.handlers) {
    const shared = setups.get(handler.generation)?.shared;
    if (shared !== undefined && rewrites.has(fn))
      plan.requires.set(fn, [...(plan.requires.get(fn) ?? []), shared.requires]);
  }
  // Handlers that now return round.inputRequired(…) widen the return type they declare.
  const throwing = new Set([...throwEdits.values()].map((planned) => planned.fn));
  for (const [fn, rewrite] of rewrites) {
    const handler = plan.handlers.get(fn)?.handler;
    if (handler === undefined || (styles.get(fn) !== 'explicit' && !throwing.has(fn))) continue;
    const widening = returnTypeWidening(context, handler.callback);
    rewrite.edits.push(...widening.edits);
    rewrite.typeImports.push(...widening.typeImports);
  }

  const usedGenerations = new Set<Generation>();
  const handlerOf = new Map<ts.CallExpression, HelperFunction>();
  for (const [fn, { askings, handler }] of plan.handlers) {
    for (const asking of askings) if (asking.kind === 'push') handlerOf.set(asking.push.call, fn);
    if (rewrites.has(fn)) usedGenerations.add(handler.generation);
  }
  for (const [fn, { askings }] of plan.helpers)
    for (const asking of askings) if (asking.kind === 'push') handlerOf.set(asking.push.call, fn);

  // Edits of a handler or helper (and of a helper's call sites) travel with its first question.
  const carried = new Set<HelperFunction>();
  const carrier = setupCarrier(
    context,
    [
      ...new Set([
        ...found.map(({ push }) => handlerOf.get(push.call)),
        ...[...throwEdits.values()].map(({ fn }) => fn),
        ...rewrites.keys(),
      ]),
    ].filter((fn): fn is HelperFunction => fn !== undefined && rewrites.has(fn)),
    plan.requires,
  );
  const linked = (site: Site, fn: HelperFunction): Site => ({
    ...site,
    link: { unit: unitOf(fn), requires: plan.requires.get(fn) ?? [] },
  });
  // What a rewrite leaves to run again each round, and which calls of a helper it presumed to be
  // calls of it, are listed once, with the site carrying its edits.
  const withNotes = (site: Site, fn: HelperFunction, rewrite: HandlerRewrite, carries: boolean): Site => {
    const notes = [...(plan.helpers.get(fn)?.helper.assumptions ?? []), ...(rewrite.notes ?? [])];
    return carries && notes.length > 0 ? { ...site, notes } : site;
  };
  // The runtime setup and the type imports travel with the carrier's first site.
  const setupFor = (fn: HelperFunction, edits: TextEdit[], imports: ImportRequest[]) => {
    if (fn !== carrier?.fn || carrier.done) return;
    carrier.done = true;
    edits.push(
      ...typeImportEdits(
        context,
        [...rewrites.values()].flatMap((each) => each.typeImports),
      ),
    );
    // Code that journals steps redeems each state once, or a retry could run a step again.
    const singleUse = [...rewrites.values()].some(journalsSteps);
    for (const generation of usedGenerations) {
      const setup = setups.get(generation)?.finish(singleUse);
      if (setup === undefined) continue;
      edits.push(...setup.edits);
      imports.push(...setup.imports);
      const stale = pendingKeys.get(generation);
      if (stale !== undefined && setup.sites.some((site) => site.kind === 'state-keys'))
        sites.splice(sites.indexOf(stale), 1);
      sites.push(...setup.sites);
    }
  };
  for (const { push, placement } of found) {
    if (placement.kind === 'manual') {
      sites.push(context.manualSite(base(push, push.shape), placement.reason));
      continue;
    }
    const fn = handlerOf.get(push.call)!;
    const rewrite = rewrites.get(fn);
    if (rewrite === undefined) {
      sites.push(linked(context.manualSite(base(push, push.shape), reasons.get(fn) ?? 'not rewritten'), fn));
      continue;
    }
    const edits: TextEdit[] = [...(rewrite.questions.get(push.call) ?? [])];
    const imports: ImportRequest[] = [];
    const carries = !carried.has(fn);
    if (carries) {
      carried.add(fn);
      edits.push(...rewrite.edits);
      imports.push(...rewrite.imports);
      // Helper call sites inside this handler.
      for (const [call, callEdits] of rewrite.questions) if (!handlerOf.has(call)) edits.push(...callEdits);
    }
    setupFor(fn, edits, imports);
    sites.push(
      withNotes(
        linked(
          context.rewriteSite(base(push, `${push.shape}-${styles.get(fn) ?? 'replay'}`), edits, {
            imports,
            packages: [RUNTIME_PACKAGE],
          }),
          fn,
        ),
        fn,
        rewrite,
        carries,
      ),
    );
  }
  for (const [node, { fn, edits: throwEdit, imports: throwImports }] of throwEdits) {
    const rewrite = rewrites.get(fn);
    if (rewrite === undefined) {
      manual.push(linked(context.manualSite(urlThrowBase(node), reasons.get(fn) ?? 'not rewritten'), fn));
      continue;
    }
    const edits = [...throwEdit];
    const imports = [...throwImports];
    const carries = !carried.has(fn);
    if (carries) {
      carried.add(fn);
      edits.push(...rewrite.edits, ...[...rewrite.questions.values()].flat());
      imports.push(...rewrite.imports);
    }
    setupFor(fn, edits, imports);
    sites.push(
      withNotes(
        linked(
          context.rewriteSite(urlThrowBase(node, true), edits, { imports, packages: [RUNTIME_PACKAGE] }),
          fn,
        ),
        fn,
        rewrite,
        carries,
      ),
    );
  }
  // Handlers and helpers that only call helpers carry their own edits with no question of their own.
  for (const [fn, rewrite] of rewrites) {
    if (carried.has(fn)) continue;
    const first = (plan.handlers.get(fn) ?? plan.helpers.get(fn))?.askings[0];
    if (first?.kind !== 'helper-call') continue;
    const edits = [...rewrite.edits];
    const imports = [...rewrite.imports];
    for (const [, callEdits] of rewrite.questions) edits.push(...callEdits);
    setupFor(fn, edits, imports);
    sites.push(
      withNotes(
        linked(
          context.rewriteSite(
            {
              transform: TRANSFORM_ID,
              category: 'elicitation',
              kind: 'helper-caller',
              node: first.call,
              todo: HELPER_CALLER_TODO,
            },
            edits,
            { imports, packages: [RUNTIME_PACKAGE] },
          ),
          fn,
        ),
        fn,
        rewrite,
        true,
      ),
    );
  }
  // A handler or helper that asks only through helpers and stays manual says why where it calls
  // the first one: the helpers it links to (in this file or another) then name that cause.
  for (const [fn, { askings }] of [...plan.handlers, ...plan.helpers]) {
    const reason = reasons.get(fn);
    const first = askings[0];
    if (reason === undefined || first?.kind !== 'helper-call' || askings.some((each) => each.kind === 'push'))
      continue;
    sites.push(
      linked(
        context.manualSite(
          {
            transform: TRANSFORM_ID,
            category: 'elicitation',
            kind: 'helper-caller',
            node: first.call,
            todo: HELPER_CALLER_TODO,
          },
          reason,
        ),
        fn,
      ),
    );
  }
  // This file's tests of a helper give it the test kit's round, which asks the server they gave it.
  for (const { call, helper, caller } of plan.tests) {
    const kit = context.importFor(TEST_KIT_MODULE, 'pushRound');
    const edit = roundArgumentEdit(
      context,
      call,
      helper.fn,
      helper.slot,
      `${kit.local}(${context.textOf(caller.server)})`,
    );
    // The placement kept a test whose arguments hide the server manual.
    if (typeof edit === 'string') continue;
    const home = helper.fn.getSourceFile();
    const label =
      home === context.sourceFile
        ? labelOf(helper.fn)
        : `${labelOf(helper.fn)} in ${placeIn(context, context.run!.contextOf(home), helper.fn)}`;
    sites.push({
      ...context.rewriteSite(
        {
          transform: TRANSFORM_ID,
          category: 'elicitation',
          kind: 'test-caller',
          node: call,
          todo: TEST_CALLER_TODO,
        },
        [edit.edit],
        { imports: [kit], packages: [RUNTIME_PACKAGE] },
      ),
      link: { unit: unitOf(caller.fn), requires: [{ unit: unitOf(helper.fn), label }] },
    });
  }
  // The completion notifiers a URL-mode rewrite removed: a client retries instead of waiting.
  for (const fn of rewrites.keys()) {
    const askings = (plan.handlers.get(fn) ?? plan.helpers.get(fn))?.askings ?? [];
    const pushes = askings.flatMap((asking) => (asking.kind === 'push' ? [asking.push] : []));
    for (const call of removedNotifiers(fn, pushes))
      sites.push(
        context.rewriteSite(
          {
            transform: TRANSFORM_ID,
            category: 'elicitation-complete',
            kind: 'completion-notifier-removed',
            node: call,
            todo: NOTIFIER_REMOVED,
          },
          [],
        ),
      );
  }
  return [...sites, ...manual].sort((a, b) => a.start - b.start);
}

/** Transform 5: push elicitation, sampling and roots in handlers become questions on the runtime's round. */
export const mrtrHandlersTransform: Transform = {
  id: TRANSFORM_ID,
  categories: ['elicitation', 'sampling', 'roots'],
  alsoMarks: [SENSITIVE_FIELD_RULE_ID],
  description: `push elicitation, sampling and roots requests inside tools/call, prompts/get and resources/read handlers become questions on the runtime's round (explicit input requests, or journaled replay); the rest become manual sites that say why (${CATEGORY_INFO.elicitation.ruleId}, ${CATEGORY_INFO.sampling.ruleId}, ${CATEGORY_INFO.roots.ruleId})`,
  prefilter: [
    'elicitInput',
    'createMessage',
    'listRoots',
    'requestSampling',
    'elicitation/create',
    'sampling/createMessage',
    'roots/list',
    'UrlElicitationRequiredError',
    'SdkV1Adapter',
    'SdkV2Adapter',
  ],
  analyse,
};
