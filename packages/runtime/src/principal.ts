/** The parts of the SDKs' `AuthInfo` that identify who is calling. */
export interface VerifiedAuth {
  readonly clientId?: string;
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** The principal of unauthenticated calls: state is then bound to the request alone. */
export const ANONYMOUS_PRINCIPAL = 'anonymous';

/**
 * The principal requestState and connect tickets are bound to, from auth the server verified: the
 * user (the token's `sub`, which token verifiers put in `extra.sub`), else the OAuth client, else
 * anonymous. A client id is shared by every user of that client, so servers with users should
 * make sure `sub` is there, or pass their own `principal` function to the adapter.
 */
export function principalFromAuth(auth: VerifiedAuth | undefined): string {
  const subject = auth?.extra?.sub;
  if (typeof subject === 'string' && subject !== '') return subject;
  return auth?.clientId ?? ANONYMOUS_PRINCIPAL;
}
