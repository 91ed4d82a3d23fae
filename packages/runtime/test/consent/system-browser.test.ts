import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openInSystemBrowser } from '../../src/client/consent/index.js';
import { REPOSITORY } from '../fixtures/clients.js';

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('openInSystemBrowser', () => {
  it('hands the launcher the normalised URL', async () => {
    const launched: string[] = [];
    await openInSystemBrowser('HTTPS://Example.COM/a b?x=1', (url) => Promise.resolve(launched.push(url)));
    expect(launched).toEqual(['https://example.com/a%20b?x=1']);
  });

  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'ms-settings:privacy'])('refuses %s', async (url) => {
    const launched: string[] = [];
    await expect(
      openInSystemBrowser(url, (target) => Promise.resolve(launched.push(target))),
    ).rejects.toThrow(TypeError);
    expect(launched).toEqual([]);
  });

  // The real launcher, in a child process whose environment has no desktop and whose "browser"
  // ($BROWSER, which xdg-open honours) only writes down what it was asked to open.
  it.runIf(process.platform === 'linux')('goes through xdg-open to the default browser', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-browser-'));
    scratch.push(dir);
    const log = path.join(dir, 'opened.txt');
    const browser = path.join(dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\n`);
    chmodSync(browser, 0o755);
    const module = path.join(REPOSITORY, 'packages/runtime/src/client/consent/system-browser.ts');
    const url = 'https://example.com/connect?ticket=abc&x=1';
    const child = spawn(
      process.execPath,
      [
        '--conditions=@mcp-mrtr/source',
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { openInSystemBrowser } = await import(${JSON.stringify(module)}); await openInSystemBrowser(${JSON.stringify(url)});`,
      ],
      {
        cwd: REPOSITORY,
        env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dir, BROWSER: browser },
        stdio: 'inherit',
      },
    );
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    // xdg-open runs detached; give it time to call the browser, however loaded the machine is.
    for (let waited = 0; waited < 60_000 && !existsSync(log); waited += 50) await sleep(50);
    expect(readFileSync(log, 'utf8')).toBe(`${url}\n`);
  });
});
