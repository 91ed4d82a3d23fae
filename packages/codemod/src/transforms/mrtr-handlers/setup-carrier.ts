import type { FileContext } from '../../analysis/file-context.js';
import type { RequiredUnit } from '../../analysis/site.js';
import { unitOf } from './cross-file-calls.js';
import type { HelperFunction } from './eligible-handlers.js';

// The runtime setup of a file (adapter, keys marker, type imports) is written by the first site
// of one rewritten function. A function linked to another file may still go manual when the run
// settles its links, and would take the setup with it; so the setup goes with a function that is
// not linked. When every rewrite of the file is linked, they are tied to the one carrying it.

/** Whether the function's rewrite needs, directly or through helpers of its file, another file's. */
function linkedElsewhere(
  context: FileContext,
  fn: HelperFunction,
  requires: ReadonlyMap<HelperFunction, readonly RequiredUnit[]>,
  seen = new Set<HelperFunction>(),
): boolean {
  if (seen.has(fn)) return false;
  seen.add(fn);
  const ownUnits = new Map([...requires.keys()].map((each) => [unitOf(each), each]));
  return (requires.get(fn) ?? []).some((required) => {
    const local = ownUnits.get(required.unit);
    if (local !== undefined) return linkedElsewhere(context, local, requires, seen);
    return !required.unit.startsWith(`${context.sourceFile.fileName}#`);
  });
}

/**
 * The rewritten function whose first site carries the file's runtime setup, with `done` to mark
 * it written; `rewritten` in the order their sites are made. Adds the ties described above.
 */
export function setupCarrier(
  context: FileContext,
  rewritten: readonly HelperFunction[],
  requires: Map<HelperFunction, RequiredUnit[]>,
): { readonly fn: HelperFunction; done: boolean } | undefined {
  const steady = rewritten.find((fn) => !linkedElsewhere(context, fn, requires));
  if (steady !== undefined) return { fn: steady, done: false };
  const first = rewritten[0];
  if (first === undefined) return undefined;
  const tie: RequiredUnit = {
    unit: unitOf(first),
    label: `the rewrite at line ${context.lineOf(first)}, which sets the runtime up in this file,`,
  };
  for (const fn of rewritten) if (fn !== first) requires.set(fn, [...(requires.get(fn) ?? []), tie]);
  return { fn: first, done: false };
}
