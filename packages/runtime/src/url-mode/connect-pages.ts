import type { ConnectRefusal } from './connect-events.js';

/** A page the connect endpoint shows instead of redirecting: a title and what to do next. */
export interface ConnectPage {
  readonly status: number;
  readonly title: string;
  readonly message: string;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

/**
 * The page for a refused ticket or callback. No page names the ticket's owner. A refused ticket
 * stays usable for its owner; a refused callback is used up, so its page never says to retry it.
 */
export function refusalPage(
  reason: ConnectRefusal,
  serverName: string,
  link: 'ticket' | 'callback' = 'ticket',
): ConnectPage {
  if (link === 'callback' && (reason === 'signed-out' || reason === 'wrong-user')) {
    const signedOut = reason === 'signed-out';
    return {
      status: signedOut ? 401 : 403,
      title: signedOut ? `You are not signed in to ${serverName}` : 'This link belongs to another account',
      message: `It works only in a browser signed in to the ${serverName} account that asked for it. Nothing was connected, and the link no longer works: if it was yours, go back to your assistant and try the request again. If someone sent it to you, there is nothing to do.`,
    };
  }
  switch (reason) {
    case 'malformed':
    case 'unknown':
      return {
        status: 404,
        title: 'This link is not valid',
        message: `${serverName} did not issue this link. Go back to your assistant and try the request again.`,
      };
    case 'expired':
      return {
        status: 410,
        title: 'This link has expired',
        message: 'Go back to your assistant and try the request again to get a new link.',
      };
    case 'used':
      return {
        status: 410,
        title: 'This link was already used',
        message:
          'Each link works once. If you did not use it yourself, someone else may have: go back to your assistant and try the request again.',
      };
    case 'signed-out':
      return {
        status: 401,
        title: `Sign in to ${serverName} first`,
        message: `This link works only for the ${serverName} account that asked for it. Sign in to ${serverName} in this browser, then open the link again.`,
      };
    case 'wrong-user':
      return {
        status: 403,
        title: 'This link belongs to another account',
        message: `It was created for a different ${serverName} user than the one signed in here. If someone sent you this link, do not continue: it would connect your account to theirs.`,
      };
  }
}

export function completedPage(serverName: string): ConnectPage {
  return {
    status: 200,
    title: 'Connected',
    message: `${serverName} is connected. You can close this tab and go back to your assistant.`,
  };
}

export function failedPage(serverName: string, error: string): ConnectPage {
  return {
    status: 200,
    title: 'Not connected',
    message: `${serverName} could not finish connecting (${error}). Go back to your assistant to try again or cancel.`,
  };
}

export function renderPage(page: ConnectPage): string {
  const title = escapeHtml(page.title);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}</style></head>
<body><h1>${title}</h1><p>${escapeHtml(page.message)}</p></body>
</html>
`;
}
