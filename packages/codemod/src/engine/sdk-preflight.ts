import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MCP_SDK_PACKAGES } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';

/** An MCP SDK package the files import that is not installed where they would find it. */
export interface UnresolvedSdkPackage {
  /** The package name, e.g. `@modelcontextprotocol/sdk`. */
  readonly name: string;
  /** Absolute paths of the files importing it, sorted. */
  readonly importedBy: readonly string[];
  /** Where resolution starts: the directory of the first file importing it. */
  readonly from: string;
}

function sdkPackageOf(specifier: string): string | undefined {
  return MCP_SDK_PACKAGES.find((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/**
 * Finds the MCP SDK packages the files import (static and dynamic imports, `require`) that no
 * `node_modules` between a file and the file-system root holds: typically a checkout whose
 * dependencies were never installed. Without them every SDK type is `any`, so the codemod can
 * only rewrite from syntax (`allowUnresolved`) or leave the sites by hand.
 */
export function findUnresolvedSdkPackages(
  files: readonly string[],
  sources?: ReadonlyMap<string, string>,
): UnresolvedSdkPackage[] {
  const installed = new Map<string, boolean>();
  const isInstalledFrom = (dir: string, name: string): boolean => {
    const key = `${dir}\0${name}`;
    let found = installed.get(key);
    if (found === undefined) {
      const parent = path.dirname(dir);
      found =
        existsSync(path.join(dir, 'node_modules', name, 'package.json')) ||
        (parent !== dir && isInstalledFrom(parent, name));
      installed.set(key, found);
    }
    return found;
  };
  const missing = new Map<string, string[]>();
  for (const file of [...files].sort()) {
    let text: string;
    try {
      text = sources?.get(file) ?? readFileSync(file, 'utf8');
    } catch {
      continue; // the migration itself reports files it cannot read
    }
    if (!text.includes('@modelcontextprotocol/')) continue;
    const { importedFiles } = ts.preProcessFile(text, true, true);
    for (const { fileName } of importedFiles) {
      const name = sdkPackageOf(fileName);
      if (name === undefined || isInstalledFrom(path.dirname(file), name)) continue;
      const importers = missing.get(name) ?? [];
      if (!importers.includes(file)) importers.push(file);
      missing.set(name, importers);
    }
  }
  return [...missing]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, importedBy]) => ({ name, importedBy, from: path.dirname(importedBy[0]!) }));
}
