import type { FileContext } from '../../analysis/file-context.js';
import type { EligibleHandler } from './eligible-handlers.js';
import { planExplicitHandler } from './explicit-handler.js';
import { explicitShape } from './explicit-shape.js';
import { planReplayHandler, type Asking, type HandlerRewrite } from './replay-handler.js';

// `--style auto` writes the explicit shape when the handler's questions all come before any side
// effect in straight-line code, and journaled replay otherwise; `--style explicit` never falls back
// to replay (a flow it cannot express stays manual); `--style replay` always replays.

export type WrittenStyle = 'explicit' | 'replay';

export interface StyledRewrite {
  readonly rewrite: HandlerRewrite;
  readonly style: WrittenStyle;
}

/** Plans one handler in the style the options and its flow call for, or says why it stays manual. */
export function planHandlerInStyle(
  context: FileContext,
  handler: EligibleHandler,
  askings: readonly Asking[],
  adapter: string,
): StyledRewrite | string {
  const option = context.handlers.style;
  const replay = (): StyledRewrite | string => {
    const rewrite = planReplayHandler(context, handler, askings, adapter);
    return typeof rewrite === 'string' ? rewrite : { rewrite, style: 'replay' };
  };
  if (option === 'replay') return replay();
  const shape = explicitShape(context, handler.callback, askings, option === 'explicit');
  if (typeof shape === 'string')
    return option === 'explicit'
      ? `the explicit style cannot express this handler: ${shape}; migrate it with --style auto or --style replay`
      : replay();
  const rewrite = planExplicitHandler(context, handler, askings, shape, adapter);
  return typeof rewrite === 'string' ? rewrite : { rewrite, style: 'explicit' };
}
