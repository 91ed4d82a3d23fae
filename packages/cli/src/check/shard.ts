import { createHash } from 'node:crypto';
import path from 'node:path';
import { InvalidArgumentError } from 'commander';

/** One of `count` parts of the files, numbered from 1 (`--shard 2/4`). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) {
    throw new InvalidArgumentError('give <index>/<count> with 1 ≤ index ≤ count, e.g. --shard 2/4');
  }
  return { index, count };
}

/**
 * The files of one shard. Files are ordered by a hash of their path relative to `cwd` (as vitest
 * does), which spreads each directory over all shards, and cut into `count` runs whose sizes differ
 * by at most one. The split depends only on the paths, so every CI job computes the same one, and
 * adding or removing a file moves at most one file across each boundary.
 */
export function shardFiles(files: readonly string[], shard: Shard, cwd: string): string[] {
  const ordered = files
    .map((file) => ({
      file,
      hash: createHash('sha1').update(path.relative(cwd, file).split(path.sep).join('/')).digest('hex'),
    }))
    .sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : a.file.localeCompare(b.file)));
  const start = Math.floor(((shard.index - 1) * ordered.length) / shard.count);
  const end = Math.floor((shard.index * ordered.length) / shard.count);
  return ordered
    .slice(start, end)
    .map(({ file }) => file)
    .sort();
}

/** The SARIF `automationDetails.id` of a shard: code scanning keeps one category per shard. */
export function shardAutomationId(shard: Shard): string {
  return `mcp-mrtr/shard-${shard.index}-of-${shard.count}/`;
}
