import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The TypeScript in the guides must compile against the packages as they are (their built
// declarations, which `tsc -b` writes before the tests run). A block that is a sketch rather than
// code says so with `<!-- illustrative -->` on the line before it; a block may declare what it
// assumes (a connected client, a Redis client) with `<!-- assumes: declare const … -->`. Every
// fence names its language, so no block is skipped without saying why.

const REPO = path.resolve(import.meta.dirname, '../../..');
const GUIDES = ['docs/migrate.md', 'docs/runtime.md', 'docs/architecture.md', 'docs/url-mode.md'];
const TYPESCRIPT = new Set(['ts', 'typescript']);

interface Block {
  readonly line: number;
  readonly language: string;
  readonly code: string;
  readonly illustrative: boolean;
  readonly assumes: string;
}

function blocksOf(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```(\S*)/.exec(lines[i]!);
    if (open === null) continue;
    const indent = open[1]!.length;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^ *```\s*$/.test(lines[i]!); i++) body.push(lines[i]!.slice(indent));
    // What stands right before the fence (blank lines aside): a marker comment, or prose.
    const before = lines.slice(Math.max(0, start - 20), start).join('\n');
    blocks.push({
      line: start + 1,
      language: open[2]!,
      code: body.join('\n'),
      illustrative: /<!-- illustrative -->\s*$/.test(before),
      assumes: /<!-- assumes: ((?:(?!-->)[\s\S])*) -->\s*$/.exec(before)?.[1] ?? '',
    });
  }
  return blocks;
}

/** Where a guide's block is compiled: beside the guide, so imports resolve from the repository. */
function blockFile(guide: string, block: Block): string {
  return path.join(REPO, path.dirname(guide), `${path.basename(guide, '.md')}.block-${block.line}.ts`);
}

/**
 * Compiles the blocks of every guide as modules in one program (loading the packages' and SDKs'
 * declarations once, not once per guide) and returns each block file's diagnostics.
 */
function diagnostics(
  blocks: readonly { readonly file: string; readonly block: Block }[],
): Map<string, string[]> {
  const sources = new Map(
    blocks.map(({ file, block }) => [file, `${block.assumes}\n${block.code}\nexport {};\n`]),
  );
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    noUnusedLocals: false,
  };
  const disk = ts.createCompilerHost(options);
  const host: ts.CompilerHost = {
    ...disk,
    fileExists: (file) => sources.has(file) || disk.fileExists(file),
    readFile: (file) => sources.get(file) ?? disk.readFile(file),
    getSourceFile: (file, language, ...rest) => {
      const text = sources.get(file);
      return text === undefined
        ? disk.getSourceFile(file, language, ...rest)
        : ts.createSourceFile(file, text, language, true);
    },
  };
  const program = ts.createProgram({ rootNames: [...sources.keys()], options, host });
  return new Map(
    [...sources.keys()].map((file) => [
      file,
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => {
        const where =
          diagnostic.file === undefined || diagnostic.start === undefined
            ? ''
            : `:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}`;
        return `${path.basename(file)}${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
      }),
    ]),
  );
}

const BLOCKS = new Map(
  GUIDES.map((guide) => [guide, blocksOf(readFileSync(path.join(REPO, guide), 'utf8'))]),
);
const checked = (guide: string) =>
  BLOCKS.get(guide)!
    .filter((block) => TYPESCRIPT.has(block.language) && !block.illustrative)
    .map((block) => ({ file: blockFile(guide, block), block }));
let compiled: Map<string, string[]> | undefined;

describe.each(GUIDES)('%s', (guide) => {
  const blocks = BLOCKS.get(guide)!;

  it('names the language of every code block', () => {
    expect(blocks.filter((block) => block.language === '').map((block) => `line ${block.line}`)).toEqual([]);
  });

  it('has TypeScript blocks that type-check against the packages', { timeout: 120_000 }, () => {
    compiled ??= diagnostics(GUIDES.flatMap(checked));
    expect(checked(guide).flatMap(({ file }) => compiled!.get(file)!)).toEqual([]);
  });
});
