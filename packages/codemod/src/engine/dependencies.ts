import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A package that rewritten code imports and the nearest package.json does not declare. */
export interface MissingDependency {
  readonly name: string;
  /** Absolute path of the package.json to add it to, or undefined when there is none. */
  readonly packageJson: string | undefined;
  /** Absolute paths of the rewritten files that import it. */
  readonly files: readonly string[];
}

interface PackageManifest {
  readonly path: string;
  readonly name: string | undefined;
  readonly declared: ReadonlySet<string>;
}

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

/** Finds and reads the nearest package.json of a file, caching by directory. */
export class PackageManifests {
  readonly #byDirectory = new Map<string, PackageManifest | undefined>();

  nearest(file: string): PackageManifest | undefined {
    const visited: string[] = [];
    let found: PackageManifest | undefined;
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if (this.#byDirectory.has(dir)) {
        found = this.#byDirectory.get(dir);
        break;
      }
      visited.push(dir);
      const candidate = path.join(dir, 'package.json');
      if (existsSync(candidate)) {
        found = readManifest(candidate);
        break;
      }
      if (path.dirname(dir) === dir) break;
    }
    for (const dir of visited) this.#byDirectory.set(dir, found);
    return found;
  }
}

function readManifest(file: string): PackageManifest {
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const declared = new Set<string>();
    for (const field of DEPENDENCY_FIELDS) {
      const entries = json[field];
      if (typeof entries === 'object' && entries !== null)
        Object.keys(entries).forEach((name) => declared.add(name));
    }
    return { path: file, name: typeof json.name === 'string' ? json.name : undefined, declared };
  } catch {
    return { path: file, name: undefined, declared: new Set() };
  }
}

/** Groups the packages each rewritten file needs by the package.json that does not declare them. */
export function missingDependencies(
  needs: ReadonlyMap<string, ReadonlySet<string>>,
  manifests: PackageManifests,
): MissingDependency[] {
  const missing = new Map<string, { name: string; packageJson: string | undefined; files: string[] }>();
  for (const [file, packages] of needs) {
    const manifest = manifests.nearest(file);
    for (const name of packages) {
      if (manifest?.declared.has(name) || manifest?.name === name) continue;
      const key = `${manifest?.path ?? ''}\0${name}`;
      const entry = missing.get(key) ?? { name, packageJson: manifest?.path, files: [] };
      entry.files.push(file);
      missing.set(key, entry);
    }
  }
  return [...missing.values()].sort((a, b) => a.name.localeCompare(b.name));
}
