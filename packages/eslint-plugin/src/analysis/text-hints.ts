// Words a file must contain for a rule to find anything in it. Rules test them before installing
// listeners, so most files of a project cost them one regular-expression scan.

/** Elicitation requests: the method string, push calls and the SDK and runtime builders. */
export const ELICITATION_IN_TEXT = /elicitation\/create|\belicit(?:Input|Form|Url)?\b/;

/** input_required results, as a literal `resultType` or through a builder. */
export const INPUT_REQUIRED_IN_TEXT = /\binput_required\b|\binputRequired\b/;
