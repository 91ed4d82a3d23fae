import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

type Segment = TSESLint.CodePathSegment;

/** A point in a function's control flow: a node and the code path segments it runs in. */
export interface FlowPoint {
  readonly node: TSESTree.Node;
  readonly segments: readonly Segment[];
}

/**
 * ESLint's code path events (typescript-eslint's listener type does not list them), so a rule can
 * spread them into its listener object.
 */
export interface CodePathListeners {
  onCodePathStart(): void;
  onCodePathEnd(): void;
  onCodePathSegmentStart(segment: Segment): void;
  onCodePathSegmentEnd(segment: Segment): void;
  onUnreachableCodePathSegmentStart(segment: Segment): void;
  onUnreachableCodePathSegmentEnd(segment: Segment): void;
}

/** Follows the segments that are current while ESLint traverses, one set per nested code path. */
export class SegmentTracker {
  private readonly stack: Set<Segment>[] = [];

  readonly listeners: CodePathListeners = {
    onCodePathStart: () => this.stack.push(new Set()),
    onCodePathEnd: () => void this.stack.pop(),
    onCodePathSegmentStart: (segment) => void this.stack.at(-1)?.add(segment),
    onCodePathSegmentEnd: (segment) => void this.stack.at(-1)?.delete(segment),
    onUnreachableCodePathSegmentStart: (segment) => void this.stack.at(-1)?.add(segment),
    onUnreachableCodePathSegmentEnd: (segment) => void this.stack.at(-1)?.delete(segment),
  };

  /** Where a node being visited right now runs. */
  point(node: TSESTree.Node): FlowPoint {
    return { node, segments: [...(this.stack.at(-1) ?? [])] };
  }

  /**
   * Where a function being entered right now sits in the code around it. ESLint starts a
   * function's own code path before its listeners run, so that is the path below the current one.
   */
  enclosingPoint(fn: TSESTree.Node): FlowPoint {
    return { node: fn, segments: [...(this.stack.at(-2) ?? [])] };
  }
}

/** Whether control can flow from `from` to `to` within one function (same segment: in source order). */
export function canReach(from: FlowPoint, to: FlowPoint): boolean {
  const targets = new Set(to.segments);
  const seen = new Set<Segment>();
  const queue: Segment[] = [];
  for (const segment of from.segments) {
    if (targets.has(segment) && from.node.range[1] <= to.node.range[0]) return true;
    queue.push(...segment.nextSegments);
  }
  while (queue.length > 0) {
    const segment = queue.pop() as Segment;
    if (seen.has(segment)) continue;
    seen.add(segment);
    if (targets.has(segment)) return true;
    queue.push(...segment.nextSegments);
  }
  return false;
}
