import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../exit-codes.js';

/**
 * Writes a report next to its destination and renames it into place, so a reader never sees a
 * half-written file and a failure leaves any previous report untouched.
 */
export async function writeOutputAtomically(file: string, text: string): Promise<void> {
  const directory = path.dirname(file);
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw new UsageError(`--output ${file}: directory ${directory} does not exist`);
  }
  if (existsSync(file) && statSync(file).isDirectory()) {
    throw new UsageError(`--output ${file}: is a directory; give a file name`);
  }
  const temporary = path.join(directory, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
