import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';
import { ruleIdOf, transforms } from '@mcp-mrtr/codemod';
import { main, type CliIo } from '../src/index.js';

// What the documentation says must hold: every claim that `migrate` rewrites a rule's sites names
// a transform `migrate --help` lists, and every relative link and anchor leads somewhere.

const REPO = path.resolve(import.meta.dirname, '../../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

const DOCS = [path.join(REPO, 'README.md'), ...markdownFiles(path.join(REPO, 'docs'))];
const relative = (file: string) => path.relative(REPO, file);

async function migrateHelp(): Promise<string> {
  let stdout = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: () => undefined },
    cwd: REPO,
    env: {},
  };
  await main(['migrate', '--help'], io);
  return stdout;
}

/** The transform IDs `migrate --help` offers for `--transform`. */
async function listedTransforms(): Promise<string[]> {
  const help = (await migrateHelp()).replace(/\s+/g, ' ');
  const list = /run only this transform \(repeatable\): ([\w\-, ]+?)(?: \(|$| -)/.exec(help)?.[1];
  return (list ?? '').split(',').map((id) => id.trim());
}

/** Text outside fenced code blocks, which hold examples rather than claims or links. */
function prose(markdown: string): string {
  return markdown.replace(/^ *```[\s\S]*?^ *```/gm, '');
}

/** The anchors GitHub gives a document's headings. */
function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm))
    anchors.add(slugger.slug(heading!.replace(/`/g, '')));
  return anchors;
}

describe('claims that migrate rewrites something', () => {
  it('--help lists every registered transform', async () => {
    expect(await listedTransforms()).toEqual(transforms.map((transform) => transform.id));
  });

  it.each(markdownFiles(path.join(REPO, 'docs/rules')).map((file) => [path.basename(file, '.md'), file]))(
    'docs/rules/%s.md claims a rewrite only when a listed transform owns the rule',
    async (rule, file) => {
      const listed = new Set(await listedTransforms());
      const owned = new Set(
        transforms
          .filter((transform) => listed.has(transform.id))
          .flatMap((transform) => transform.categories.map(ruleIdOf)),
      );
      // "No `mcp-mrtr migrate` transform rewrites these sites yet" is the opposite of a claim.
      const text = prose(readFileSync(file, 'utf8')).replace(/\bNo `mcp-mrtr migrate` transform\b/g, '');
      const claim = /`(?:mcp-mrtr )?migrate`[^.]*?\brewrites?\b/i.test(text);
      if (claim) expect([...owned]).toContain(rule);
    },
  );

  it('docs/migrate.md names exactly the transforms --help lists', async () => {
    const row = readFileSync(path.join(REPO, 'docs/migrate.md'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| `--transform <id>`'));
    const ids = [...(row ?? '').matchAll(/`([a-z-]+)`/g)].map((match) => match[1]);
    expect(ids).toEqual(await listedTransforms());
  });
});

describe.each(DOCS.map((file) => [relative(file), file]))('links in %s', (_name, file) => {
  const markdown = readFileSync(file, 'utf8');
  const links = [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));

  it('lead to files that exist and to headings that exist', () => {
    const broken = links.filter((target) => {
      const [pathPart, anchor] = target.split('#') as [string, string | undefined];
      const destination = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURI(pathPart));
      let text: string;
      try {
        text = readFileSync(destination, 'utf8');
      } catch {
        return !isDirectory(destination);
      }
      return anchor !== undefined && destination.endsWith('.md') && !anchorsOf(text).has(anchor);
    });
    expect(broken).toEqual([]);
  });
});

function isDirectory(dir: string): boolean {
  try {
    readdirSync(dir);
    return true;
  } catch {
    return false;
  }
}
