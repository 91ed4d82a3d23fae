import type { InputContext, InputHandlers } from '../input-handlers.js';
import { openInSystemBrowser } from './system-browser.js';
import { describeUrlForConsent, type UrlConsentPrompt } from './url-consent-prompt.js';

/**
 * The user's choice. `finished` is the "retry" control the spec recommends: the user already did
 * what the link asked (it was opened on an earlier round) and wants the server to check, so the
 * retry goes out as an accept and nothing is opened again.
 */
export type UrlConsentAnswer = 'accept' | 'decline' | 'cancel' | 'finished';

export interface UrlConsentHandlerOptions {
  /** The requesting server's name, as the user knows it (its `serverInfo.title` or `name`). */
  readonly serverName: string;
  /** The server's URL, so links to other sites and imitations of its own are flagged. */
  readonly serverUrl?: string | URL;
  /**
   * Shows the prompt and returns the user's explicit choice. Show `serverName`, `message`, the
   * full `url` with the `site` segment highlighted, and every warning; never choose for the user.
   */
  readonly ask: (prompt: UrlConsentPrompt, context: InputContext) => Promise<UrlConsentAnswer>;
  /** Opens an accepted URL. Default: the OS's default browser ({@link openInSystemBrowser}). */
  readonly open?: (url: string, context: InputContext) => Promise<void>;
  /** Told about a link that must not be opened at all (not a web page); it is declined. */
  readonly onRefused?: (prompt: UrlConsentPrompt, context: InputContext) => void | Promise<void>;
}

/**
 * The URL-mode handler for the client retry loop (`InputHandlers.url`): it describes each link
 * for the user, asks, and opens only what the user explicitly accepted, once, in the system
 * browser. A link that is not a web page is declined without asking.
 */
export function urlConsentHandler(options: UrlConsentHandlerOptions): NonNullable<InputHandlers['url']> {
  const consented = new Set<string>();
  const finished = new Set<string>();
  const open = options.open ?? ((url: string) => openInSystemBrowser(url));
  return {
    consent: async (request, context) => {
      const prompt = describeUrlForConsent(request.url, {
        serverName: options.serverName,
        message: request.message,
        ...(options.serverUrl !== undefined && { serverUrl: options.serverUrl }),
      });
      if (!prompt.openable) {
        await options.onRefused?.(prompt, context);
        return 'decline';
      }
      const answer = await options.ask(prompt, context);
      if (answer === 'accept') consented.add(prompt.url);
      if (answer !== 'finished') return answer;
      finished.add(prompt.url);
      return 'accept';
    },
    open: async (url, context) => {
      if (finished.delete(url)) return;
      // One accept opens one URL once: nothing opens that the user did not just agree to.
      if (!consented.delete(url)) throw new Error(`Refusing to open ${url}: the user did not consent to it.`);
      await open(url, context);
    },
  };
}
