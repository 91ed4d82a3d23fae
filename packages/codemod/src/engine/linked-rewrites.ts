import path from 'node:path';
import { downgrade, type Site } from '../analysis/site.js';
import type { FileOutcome } from './migration-result.js';

// A rewrite that spans files (a helper takes `round`, its callers in other files pass it) is
// planned by each file's own analysis, each writing only its own file. These functions keep the
// parts together: a part whose counterpart stays manual goes manual too, and a file whose
// counterpart cannot be written is not written either.

/**
 * Downgrades, until nothing changes, every unit of rewrites that requires a unit which is not
 * rewritten: one with a manual site, or one no analysis planned at all.
 */
export function settleLinkedRewrites(sites: readonly Site[]): Site[] {
  let settled = [...sites];
  for (;;) {
    const rewritten = new Set<string>();
    const manualReason = new Map<string, string>();
    for (const site of settled) {
      const unit = site.link?.unit;
      if (unit === undefined) continue;
      if (site.rewrite === undefined) {
        if (!manualReason.has(unit)) manualReason.set(unit, site.reason ?? 'it is not rewritten');
      } else rewritten.add(unit);
    }
    const failing = new Map<string, string>();
    for (const site of settled) {
      const link = site.link;
      if (link === undefined || site.rewrite === undefined || failing.has(link.unit)) continue;
      for (const required of link.requires) {
        const reason = manualReason.get(required.unit);
        if (reason !== undefined) {
          failing.set(link.unit, `${required.label} stays manual: ${reason}`);
          break;
        }
        if (!rewritten.has(required.unit)) {
          failing.set(link.unit, `${required.label} is not rewritten`);
          break;
        }
      }
    }
    if (failing.size === 0) return settled;
    settled = settled.map((site) => {
      const reason = site.link === undefined ? undefined : failing.get(site.link.unit);
      return reason === undefined || site.rewrite === undefined ? site : downgrade(site, reason);
    });
  }
}

function unitFile(unit: string): string {
  return unit.slice(0, unit.lastIndexOf('#'));
}

/** For each file with linked rewrites, every file its rewrites are tied to, itself included. */
export function linkedFiles(sites: readonly Site[]): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>();
  const join = (a: string, b: string) => {
    const first = groups.get(a) ?? new Set([a]);
    const second = groups.get(b) ?? new Set([b]);
    const merged = first === second ? first : new Set([...first, ...second]);
    for (const file of merged) groups.set(file, merged);
  };
  for (const site of sites) {
    if (site.rewrite === undefined || site.link === undefined) continue;
    for (const required of site.link.requires) join(site.file, unitFile(required.unit));
  }
  return groups;
}

/**
 * Fails every changed file tied to a file that failed, so that no half of a cross-file rewrite is
 * written: the reason names the file that failed.
 */
export function failWithLinked(
  outcomes: readonly FileOutcome[],
  groups: ReadonlyMap<string, ReadonlySet<string>>,
  cwd: string,
): FileOutcome[] {
  const failed = new Map(
    outcomes.filter((outcome) => outcome.status === 'failed').map((outcome) => [outcome.file, outcome]),
  );
  return outcomes.map((outcome) => {
    if (outcome.status !== 'changed') return outcome;
    const partner = [...(groups.get(outcome.file) ?? [])].find((file) => failed.has(file));
    if (partner === undefined) return outcome;
    const why = failed.get(partner)!.reason ?? 'it failed';
    return {
      ...outcome,
      status: 'failed',
      reason: `left unchanged with ${path.relative(cwd, partner).replaceAll('\\', '/')}, whose part of the same cross-file rewrite failed (${why})`,
    };
  });
}
