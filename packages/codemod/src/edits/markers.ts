import type { SourceStyle } from './source-style.js';
import { lineStartOf } from './line-ranges.js';
import type { TextEdit } from './text-edit.js';

/** Every marker starts with this, so `grep -rn "mcp-mrtr:"` lists what is left to do. */
export const MARKER_PREFIX = 'mcp-mrtr:';

/**
 * Where a manual site's marker goes: above the line that starts at `lineStart`, inline, or nowhere
 * because a rewrite writes it as part of the code it inserts (`in-rewrite`).
 */
export type MarkerAnchor =
  | { readonly kind: 'line'; readonly lineStart: number; readonly indent: string }
  | { readonly kind: 'inline'; readonly offset: number }
  | { readonly kind: 'in-rewrite' };

export function markerText(ruleId: string, todo: string): string {
  return `${MARKER_PREFIX} ${ruleId} — ${todo.replace(/\s+/g, ' ').trim()}`;
}

/** Whether the comment lines right above `lineStart` already hold a marker for `ruleId`. */
export function hasMarkerAbove(text: string, lineStart: number, ruleId: string): boolean {
  return markerLineAbove(text, lineStart, ruleId) !== undefined;
}

/**
 * The comment line right above `lineStart` (among the comment lines there) that holds a marker
 * for `ruleId`, from its start to the start of the next line.
 */
export function markerLineAbove(
  text: string,
  lineStart: number,
  ruleId: string,
): { readonly start: number; readonly end: number } | undefined {
  let end = lineStart;
  while (end > 0) {
    const start = lineStartOf(text, end - 1);
    const line = text.slice(start, end).trim();
    if (!line.startsWith('//') && !line.startsWith('/*') && !line.startsWith('*')) return undefined;
    if (line.includes(`${MARKER_PREFIX} ${ruleId} `)) return { start, end };
    end = start;
  }
  return undefined;
}

/** Whether an inline marker for `ruleId` ends right before `offset`. */
export function hasInlineMarkerBefore(text: string, offset: number, ruleId: string): boolean {
  const before = text.slice(Math.max(0, offset - 2000), offset).trimEnd();
  if (!before.endsWith('*/')) return false;
  const open = before.lastIndexOf('/*');
  return open !== -1 && before.slice(open).includes(`${MARKER_PREFIX} ${ruleId} `);
}

/** The edit that adds a marker, or undefined when the same rule's marker is already there. */
export function markerEdit(
  text: string,
  style: SourceStyle,
  anchor: MarkerAnchor,
  ruleId: string,
  todo: string,
): TextEdit | undefined {
  const comment = markerText(ruleId, todo);
  if (anchor.kind === 'in-rewrite') return undefined;
  if (anchor.kind === 'line') {
    if (hasMarkerAbove(text, anchor.lineStart, ruleId)) return undefined;
    return {
      start: anchor.lineStart,
      end: anchor.lineStart,
      text: `${anchor.indent}// ${comment}${style.newline}`,
    };
  }
  if (hasInlineMarkerBefore(text, anchor.offset, ruleId)) return undefined;
  return { start: anchor.offset, end: anchor.offset, text: `/* ${comment.replaceAll('*/', '* /')} */ ` };
}
