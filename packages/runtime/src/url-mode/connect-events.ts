/**
 * Why the connect endpoint refused a ticket or a callback. The browser gets a page that says
 * what to do; the reason goes to {@link ConnectEvent}s for the server's audit log.
 */
export const CONNECT_REFUSALS = [
  /** Not a ticket or state this server could have issued. */
  'malformed',
  /** Never issued, or forgotten after its flow expired. */
  'unknown',
  'expired',
  /** Already used: a replay, or a second visit. */
  'used',
  /** No session on this server: nobody to compare with the ticket's principal. */
  'signed-out',
  /** Opened by a different user than the one it was issued to: a forwarded link. */
  'wrong-user',
] as const;

export type ConnectRefusal = (typeof CONNECT_REFUSALS)[number];

/** What happened in a URL-mode flow, for the server's audit log. Never carries tickets or tokens. */
export type ConnectEvent =
  | {
      readonly type: 'flow-started' | 'ticket-issued';
      readonly flow: string;
      readonly principal: string;
      readonly provider: string;
    }
  | {
      readonly type: 'ticket-refused' | 'callback-refused';
      readonly reason: ConnectRefusal;
      readonly flow?: string;
      /** Whom the ticket or state was issued to. */
      readonly principal?: string;
      /** Whose session presented it, when that differs or is missing. */
      readonly sessionPrincipal?: string;
    }
  | {
      readonly type: 'redirected' | 'completed';
      readonly flow: string;
      readonly principal: string;
      readonly provider: string;
    }
  | {
      readonly type: 'failed';
      readonly flow: string;
      readonly principal: string;
      readonly provider: string;
      /** The provider's error code (`access_denied`), or why the runtime failed the flow. */
      readonly error: string;
      readonly cause?: unknown;
    }
  | {
      /** A retry found its flow gone (expired): a new flow and ticket start. */
      readonly type: 'flow-restarted';
      readonly flow: string;
      readonly principal: string;
    };
