import type { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { REQUEST_STATE_RULE_ID } from '../../analysis/site-category.js';
import { downgrade, type Site } from '../../analysis/site.js';
import type { Transform } from '../../transform.js';
import {
  findPlaintextState,
  REQUEST_STATE,
  type PlaintextWrite,
  type UnverifiedRead,
} from './plaintext-state.js';
import { manualHandlerSites, planHandler } from './seal-and-open.js';
import { existingSetup, pendingKeysSite, planSetup, setupNames } from './sealer-setup.js';
import { findStateHandler, type HandlerLookup, type StateHandler } from './state-handlers.js';
import { TRANSFORM_ID } from './transform-id.js';

const STATE_SITE_KINDS: ReadonlySet<string> = new Set(['plaintext-write', 'plaintext-read']);
const SETUP_KINDS: ReadonlySet<string> = new Set(['sealer-setup', 'state-keys']);

interface Group {
  readonly lookup: HandlerLookup;
  readonly writes: PlaintextWrite[];
  readonly reads: UnverifiedRead[];
}

/**
 * Finds plaintext requestState written into input_required results and decoded without
 * verification (what `require-sealed-request-state` reports) and, handler by handler, seals it at
 * the write and opens it at the read with the runtime's RequestStateSealer.
 */
function analyse(context: FileContext): Site[] {
  const existing = existingSetup(context.sourceFile);
  const pending = pendingKeysSite(context, existing);
  const sites: Site[] = pending === undefined ? [] : [pending];
  const { writes, reads } = findPlaintextState(context.sourceFile, context.checker);
  if (writes.length === 0 && reads.length === 0) return sites;

  const lookups = new Map<StateHandler['callback'], HandlerLookup>();
  const groups = new Map<object, Group>();
  const groupOf = (node: ts.Node): Group => {
    const lookup = findStateHandler(context, node, lookups);
    const key = 'handler' in lookup ? lookup.handler.callback : (lookup.callback ?? node);
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { lookup, writes: [], reads: [] }));
    return group;
  };
  for (const write of writes) groupOf(write.value).writes.push(write);
  for (const read of reads) groupOf(read.call).reads.push(read);

  // State decoded or encoded outside any handler may be any handler's: sealing one side would
  // break the other, so the file's handlers are left alone.
  const outside = [...groups.values()].find(({ lookup }) => !('handler' in lookup) && !lookup.callback);
  const outsideNode = outside?.reads[0]?.call ?? outside?.writes[0]?.value;
  const outsideReason =
    outsideNode &&
    `requestState is also handled outside any handler on line ${context.lineOf(outsideNode)}, perhaps this handler's; migrate both together by hand`;
  const names = setupNames(context, existing);
  const stateSites: Site[] = [];
  for (const { lookup, ...handlerSites } of groups.values()) {
    stateSites.push(
      ...('handler' in lookup
        ? outsideReason === undefined
          ? planHandler(context, lookup.handler, handlerSites, names)
          : manualHandlerSites(context, handlerSites, outsideReason)
        : manualHandlerSites(context, handlerSites, lookup.reason)),
    );
  }
  if (stateSites.some((site) => site.rewrite !== undefined)) {
    const setup = planSetup(context, existing, names);
    if (setup === undefined) {
      const reason = 'the file has no statement after its imports to declare the sealer before';
      return [
        ...sites,
        ...stateSites.map((site) => (site.rewrite === undefined ? site : downgrade(site, reason))),
      ];
    }
    sites.push(...setup);
  }
  return [...sites, ...stateSites].sort((a, b) => a.start - b.start);
}

/** A file whose state sites all became manual needs no sealer: its setup goes with them. */
function resolve(sites: readonly Site[]): Site[] {
  const sealing = new Set(
    sites
      .filter((site) => site.rewrite !== undefined && STATE_SITE_KINDS.has(site.kind))
      .map((site) => site.file),
  );
  return sites.filter(
    (site) =>
      sealing.has(site.file) ||
      !SETUP_KINDS.has(site.kind) ||
      (site.kind === 'state-keys' && site.anchor.kind !== 'in-rewrite'),
  );
}

/** Transform 3: plaintext requestState is sealed at the write and opened at the read. */
export const requestStateTransform: Transform = {
  id: TRANSFORM_ID,
  categories: ['request-state'],
  description: `plaintext requestState is sealed with the runtime's RequestStateSealer where it is written and opened where it is read, bound to the principal and the request (${REQUEST_STATE_RULE_ID})`,
  prefilter: [REQUEST_STATE],
  analyse,
  resolve,
};
