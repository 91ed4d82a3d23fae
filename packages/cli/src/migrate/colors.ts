import pc from 'picocolors';
import type { CliIo, OutputStream } from '../io.js';

export type Colors = ReturnType<typeof pc.createColors>;

/**
 * Colours for one output stream: on when it is a terminal, unless `NO_COLOR` is set; `FORCE_COLOR`
 * (anything but `0`) turns them on anywhere.
 */
export function colorsFor(stream: OutputStream, env: CliIo['env']): Colors {
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0';
  const disabled = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return pc.createColors(forced || (stream.isTTY === true && !disabled));
}
