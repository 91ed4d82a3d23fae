/** A literal substring, or a pattern, that marks a file as worth parsing for a transform. */
export type PrefilterTerm = string | RegExp;

/** Whether the text contains any of the terms; the cheap test that spares most files a parse. */
export function matchesPrefilter(text: string, terms: readonly PrefilterTerm[]): boolean {
  return terms.some((term) => (typeof term === 'string' ? text.includes(term) : term.test(text)));
}
