import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { HandlerOptions, LoggingTarget } from '@mcp-mrtr/codemod';

export const CASES_DIR = path.resolve(import.meta.dirname, '../../../fixtures/codemod/cases');

/** What a case expects besides its `after/` files: `case.json` next to `before/`. */
export interface CaseSpec {
  readonly description: string;
  readonly logging?: LoggingTarget;
  /** `--style`, `--sampling`, `--roots`, `--depth` for the mrtr-handlers transform. */
  readonly handlers?: Partial<HandlerOptions>;
  /** Manual sites as `before/<file>:<line> <rule-id>`, in report order. */
  readonly manual: readonly string[];
  /** Files expected to fail, as `before/<file>`. */
  readonly failed?: readonly string[];
  /**
   * The case also runs on a copy where no `node_modules` is reachable (a checkout before `npm
   * install`), with `allowUnresolved`: the output and the manual sites must be the same as with the
   * SDK installed.
   */
  readonly sameWithoutSdk?: boolean;
}

export interface FixtureCase {
  readonly name: string;
  readonly dir: string;
  readonly spec: CaseSpec;
  /** Source files, relative to `before/` (and `after/`); each side has its own tsconfig.json. */
  readonly files: readonly string[];
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

/** Every before/after pair under fixtures/codemod/cases. */
export function fixtureCases(): FixtureCase[] {
  return readdirSync(CASES_DIR)
    .filter((name) => existsSync(path.join(CASES_DIR, name, 'case.json')))
    .sort()
    .map((name) => {
      const dir = path.join(CASES_DIR, name);
      return {
        name,
        dir,
        spec: JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as CaseSpec,
        files: listFiles(path.join(dir, 'before'))
          .filter((file) => /\.[cm]?[jt]sx?$/.test(file))
          .sort(),
      };
    });
}
