/** The phases of a run, in order: read and prefilter, analyse with types, edit and validate. */
export type Phase = 'scan' | 'analyse' | 'apply' | 'write';

export interface ProgressEvent {
  readonly phase: Phase;
  readonly done: number;
  readonly total: number;
}

export type ProgressListener = (event: ProgressEvent) => void;

/** Lets a progress bar redraw between files without slowing the run measurably. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
