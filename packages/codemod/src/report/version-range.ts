// Just enough of npm's version ranges to tell whether a project's SDK fits the runtime's peer
// range: `1.2.3`, `=`, `>=`, `>`, `<=`, `<`, `^`, `~`, x-ranges (`1.x`, `1.2`, `*`), hyphen
// ranges, and `||` between sets. Prerelease tags are ignored. What this does not read
// (`latest`, `workspace:*`, a git URL) is undefined, and the caller says it could not tell.

type Version = readonly [number, number, number];

interface Comparator {
  readonly op: '<' | '<=' | '>' | '>=' | '=';
  readonly version: Version;
}

/** A range as alternatives, each a conjunction of comparators. */
type Range = readonly (readonly Comparator[])[];

const PART = String.raw`(?:0|[1-9]\d*|[xX*])`;
const PARTIAL = new RegExp(`^v?(${PART})(?:\\.(${PART})(?:\\.(${PART})(?:-[0-9A-Za-z.-]+)?)?)?$`);

/** A version with its missing or wildcard parts, as written: `1.x` is [1, undefined, undefined]. */
function partial(text: string): (number | undefined)[] | undefined {
  const match = PARTIAL.exec(text);
  if (match === null) return undefined;
  const parts = match
    .slice(1, 4)
    .map((part) => (part === undefined || /^[xX*]$/.test(part) ? undefined : Number(part)));
  // A wildcard makes every later part a wildcard too.
  const first = parts.indexOf(undefined);
  return first === -1 ? parts : parts.map((part, index) => (index < first ? part : undefined));
}

function filled(parts: readonly (number | undefined)[]): Version {
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
}

/** The first version above every version matching the partial: `1.2` → 1.3.0. */
function above(parts: readonly (number | undefined)[]): Version | undefined {
  if (parts[0] === undefined) return undefined;
  if (parts[1] === undefined) return [parts[0] + 1, 0, 0];
  if (parts[2] === undefined) return [parts[0], parts[1] + 1, 0];
  return undefined;
}

function comparators(token: string): Comparator[] | undefined {
  const match = /^(\^|~>?|>=|<=|>|<|=)?\s*(.*)$/.exec(token)!;
  const op = match[1];
  const parts = partial(match[2]!);
  if (parts === undefined) return undefined;
  const low = filled(parts);
  const [major, minor, patch] = parts;
  const range = (upper: Version | undefined): Comparator[] => [
    { op: '>=', version: low },
    ...(upper === undefined ? [] : [{ op: '<' as const, version: upper }]),
  ];
  switch (op) {
    case '^': {
      if (major === undefined) return [];
      if (major > 0 || minor === undefined) return range([major + 1, 0, 0]);
      if (minor > 0 || patch === undefined) return range([0, minor + 1, 0]);
      return range([0, 0, patch + 1]);
    }
    case '~':
    case '~>':
      if (major === undefined) return [];
      return range(minor === undefined ? [major + 1, 0, 0] : [major, minor + 1, 0]);
    case '>':
    case '<=': {
      const next = above(parts);
      if (next === undefined) return [{ op, version: low }];
      return [{ op: op === '>' ? '>=' : '<', version: next }];
    }
    case '>=':
    case '<':
      return [{ op, version: low }];
    default:
      return major === undefined
        ? []
        : patch === undefined
          ? range(above(parts))
          : [{ op: '=', version: low }];
  }
}

export function parseRange(text: string): Range | undefined {
  const sets: Comparator[][] = [];
  for (const alternative of text.trim().split('||')) {
    const set: Comparator[] = [];
    const hyphen = /^\s*(\S+)\s+-\s+(\S+)\s*$/.exec(alternative);
    const tokens = hyphen
      ? [`>=${hyphen[1]}`, `<=${hyphen[2]}`]
      : alternative
          .replace(/(>=|<=|>|<|=|\^|~>?)\s+/g, '$1')
          .trim()
          .split(/\s+/);
    for (const token of tokens.filter((each) => each !== '')) {
      const parsed = comparators(token);
      if (parsed === undefined) return undefined;
      set.push(...parsed);
    }
    sets.push(set);
  }
  return sets;
}

export function parseVersion(text: string): Version | undefined {
  const parts = partial(text.trim());
  return parts === undefined || parts.includes(undefined) ? undefined : filled(parts);
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

function holds(version: Version, comparator: Comparator): boolean {
  const order = compare(version, comparator.version);
  switch (comparator.op) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    case '=':
      return order === 0;
  }
}

/** Whether a version lies in a range; undefined when either is not one this module reads. */
export function satisfies(version: string, range: string): boolean | undefined {
  const parsedVersion = parseVersion(version);
  const parsedRange = parseRange(range);
  if (parsedVersion === undefined || parsedRange === undefined) return undefined;
  return parsedRange.some((set) => set.every((comparator) => holds(parsedVersion, comparator)));
}

/** The lowest version a range allows (`^1.15.0` → 1.15.0), or undefined when it does not read. */
export function minVersion(range: string): string | undefined {
  const parsed = parseRange(range);
  if (parsed === undefined) return undefined;
  let lowest: Version | undefined;
  for (const set of parsed) {
    let low: Version = [0, 0, 0];
    for (const comparator of set) {
      if (comparator.op === '<' || comparator.op === '<=') continue;
      const bound: Version =
        comparator.op === '>'
          ? [comparator.version[0], comparator.version[1], comparator.version[2] + 1]
          : comparator.version;
      if (compare(bound, low) > 0) low = bound;
    }
    if (!set.every((comparator) => holds(low, comparator))) continue;
    if (lowest === undefined || compare(low, lowest) < 0) lowest = low;
  }
  return lowest?.join('.');
}
