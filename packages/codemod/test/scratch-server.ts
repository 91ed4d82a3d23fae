import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `source` as `server.ts` in its own directory `work/name`, with a tsconfig that extends the
 * fixture cases' one so the SDK and the runtime resolve from the repository. Returns the file's path.
 */
export function writeScratchServer(work: string, name: string, source: string): string {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: '../../../tsconfig.json', include: ['.'] }),
  );
  const file = path.join(dir, 'server.ts');
  writeFileSync(file, source);
  return file;
}
