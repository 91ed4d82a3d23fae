import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY } from './fixtures/clients.js';

// The packed runtime installs with plain npm next to the oldest SDK v1 it supports, and loads
// from require() there. npm's peer check used to refuse it (ERESOLVE) next to SDK 1.15.0.

interface Manifest {
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
  readonly peerDependencies: Record<string, string>;
}

const runtimeManifest = JSON.parse(
  readFileSync(path.join(REPOSITORY, 'packages/runtime/package.json'), 'utf8'),
) as Manifest;
/** The floor the sdk-v1-oldest test project runs on, from its npm alias. */
const SDK_FLOOR = /^npm:@modelcontextprotocol\/sdk@(.+)$/.exec(
  runtimeManifest.devDependencies['@modelcontextprotocol/sdk-oldest'] ?? '',
)?.[1];

let project: string;

beforeAll(() => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', 'packages/runtime', 'packages/runtime/tsconfig.cjs.json'], {
    cwd: REPOSITORY,
  });
  project = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-packed-'));
  execFileSync(
    'npm',
    ['pack', '-w', 'packages/core', '-w', 'packages/runtime', '--pack-destination', project],
    {
      cwd: REPOSITORY,
      stdio: 'ignore',
    },
  );
  const version = runtimeManifest.dependencies['@mcp-mrtr/core'];
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({
      name: 'packed-consumer',
      private: true,
      type: 'commonjs',
      dependencies: {
        '@modelcontextprotocol/sdk': SDK_FLOOR,
        '@mcp-mrtr/core': `file:./mcp-mrtr-core-${version}.tgz`,
        '@mcp-mrtr/runtime': `file:./mcp-mrtr-runtime-${version}.tgz`,
      },
    }),
  );
  // Plain npm install: it fails with ERESOLVE when the runtime's peer range excludes the SDK.
  // From npm's cache where it can: after npm ci the tarballs are there; package metadata may
  // come from the registry once.
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: project,
    stdio: 'pipe',
  });
}, 180_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the packed runtime in a CommonJS project on the oldest supported SDK v1', () => {
  it('names that SDK release as its peer range floor, and it is the one installed', () => {
    expect(SDK_FLOOR).toMatch(/^1\.\d+\.\d+$/);
    expect(runtimeManifest.peerDependencies['@modelcontextprotocol/sdk']).toBe(`^${SDK_FLOOR}`);
    const installed = JSON.parse(
      readFileSync(path.join(project, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe(SDK_FLOOR);
  });

  it('loads with require() alone', () => {
    const loaded = execFileSync(
      process.execPath,
      [
        // CommonJS only, as under Jest: no require() of ES modules.
        '--no-experimental-require-module',
        '-e',
        `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
         const { Keyring, MrtrRuntime } = require('@mcp-mrtr/runtime');
         const { SdkV1Adapter } = require('@mcp-mrtr/runtime/sdk-v1');
         const mrtr = new SdkV1Adapter(new MrtrRuntime({ keyring: Keyring.fromEnv() }));
         mrtr.registerTool(new McpServer({ name: 'packed', version: '1.0.0' }), 'noop', {}, () => ({ content: [] }));
         console.log(require.resolve('@mcp-mrtr/runtime/sdk-v1'));`,
      ],
      { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH } },
    );
    expect(path.relative(project, loaded.trim())).toBe(
      path.join('node_modules/@mcp-mrtr/runtime/commonjs/sdk-v1/index.js'),
    );
  });

  it('types handler arguments from that SDK release’s schemas', () => {
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'node16',
          moduleResolution: 'node16',
          strict: true,
          noEmit: true,
          // Declarations the runtime cannot resolve on this SDK would make arguments any: the
          // expect-error directives of typed-handlers.ts then fail as unused.
          skipLibCheck: true,
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          typeRoots: [path.join(REPOSITORY, 'node_modules/@types')],
        },
        files: ['typed-handlers.ts'],
      }),
    );
    copyFileSync(
      path.join(REPOSITORY, 'fixtures/commonjs-consumer/src/typed-handlers.ts'),
      path.join(project, 'typed-handlers.ts'),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);
});

describe('the packed runtime and core, as a debugger or an editor reads them', () => {
  it('ship the sources their source maps and declaration maps point at', () => {
    const missing: string[] = [];
    for (const name of ['core', 'runtime']) {
      const installed = path.join(project, 'node_modules/@mcp-mrtr', name);
      const maps = readdirSync(installed, { recursive: true, encoding: 'utf8' }).filter((file) =>
        file.endsWith('.map'),
      );
      expect(maps.length).toBeGreaterThan(0);
      for (const map of maps) {
        const { sources } = JSON.parse(readFileSync(path.join(installed, map), 'utf8')) as {
          sources: string[];
        };
        for (const source of sources) {
          const resolved = path.resolve(installed, path.dirname(map), source);
          if (!existsSync(resolved)) missing.push(`${name}/${map} -> ${path.relative(installed, resolved)}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
