import { plural } from '../plural.js';
import cliProgress from 'cli-progress';
import type { Phase, ProgressListener } from '@mcp-mrtr/codemod';
import type { CliIo } from '../io.js';

const PHASE_LABELS: Readonly<Record<Phase, string>> = {
  scan: 'reading',
  analyse: 'analysing',
  apply: 'editing',
  write: 'writing',
};

export interface ProgressReporter {
  readonly listener: ProgressListener;
  /** Clears a live bar; call before printing anything else on stderr. */
  stop(): void;
}

/**
 * Progress on stderr: a live bar on a terminal, one line per phase otherwise (CI logs stay
 * readable), nothing with `--quiet`.
 */
export function createProgressReporter(io: CliIo, quiet: boolean): ProgressReporter {
  if (quiet) return { listener: () => undefined, stop: () => undefined };
  if (io.stderr.isTTY !== true || io.env.CI !== undefined) {
    let announced: Phase | undefined;
    return {
      listener: ({ phase, total }) => {
        if (phase === announced || total === 0) return;
        announced = phase;
        io.stderr.write(`mcp-mrtr migrate: ${PHASE_LABELS[phase]} ${plural(total, 'file')}\n`);
      },
      stop: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderr as NodeJS.WritableStream,
      format: ' {phase} [{bar}] {value}/{total} files',
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let current: Phase | undefined;
  return {
    listener: ({ phase, done, total }) => {
      if (phase !== current) {
        if (current !== undefined) bar.stop();
        current = phase;
        bar.start(total, done, { phase: PHASE_LABELS[phase].padEnd(9) });
      } else {
        bar.update(done);
      }
    },
    stop: () => {
      if (current !== undefined) bar.stop();
    },
  };
}
