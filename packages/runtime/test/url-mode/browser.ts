// A user's web browser for the end-to-end tests: a cookie jar per origin, redirects followed one
// by one so each hop is recorded, and a way to stop before a hop (to forward that URL instead).

export interface Visit {
  readonly url: string;
  readonly status: number;
  readonly location?: string;
}

export interface PageResult {
  /** The last URL loaded, or the one the browser stopped before. */
  readonly url: string;
  readonly status: number;
  readonly body: string;
  readonly headers: Headers;
  /** Whether the browser stopped before loading `url`. */
  readonly stopped: boolean;
}

export class Browser {
  readonly visits: Visit[] = [];
  private readonly jar = new Map<string, Map<string, string>>();

  constructor(readonly owner: string) {}

  /**
   * Loads a URL and follows redirects. `stopBefore` returns true for a URL the browser must not
   * load: the result then carries that URL, unvisited.
   */
  async open(start: string, stopBefore: (url: URL) => boolean = () => false): Promise<PageResult> {
    let url = new URL(start);
    for (let hop = 0; hop < 10; hop++) {
      const response = await fetch(url, { redirect: 'manual', headers: this.cookieHeader(url) });
      this.remember(url, response.headers.getSetCookie());
      const location = response.headers.get('location');
      this.visits.push({ url: url.href, status: response.status, ...(location !== null && { location }) });
      const body = await response.text();
      if (response.status < 300 || response.status >= 400 || location === null) {
        return { url: url.href, status: response.status, body, headers: response.headers, stopped: false };
      }
      const next = new URL(location, url);
      if (stopBefore(next)) {
        return { url: next.href, status: response.status, body, headers: response.headers, stopped: true };
      }
      url = next;
    }
    throw new Error(`${this.owner}'s browser: too many redirects from ${start}`);
  }

  private cookieHeader(url: URL): Record<string, string> {
    const cookies = this.jar.get(url.origin);
    if (!cookies || cookies.size === 0) return {};
    return { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  private remember(url: URL, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      if (separator <= 0) continue;
      let cookies = this.jar.get(url.origin);
      if (!cookies) this.jar.set(url.origin, (cookies = new Map<string, string>()));
      cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
    }
  }
}
