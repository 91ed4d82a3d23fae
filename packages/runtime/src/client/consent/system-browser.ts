/** Starts the OS's handler for a URL and resolves once it has started. */
export type UrlLauncher = (url: string) => Promise<unknown>;

/** The `open` package: `open` on macOS, PowerShell's Start-Process on Windows, xdg-open elsewhere. */
const launchWithOs: UrlLauncher = async (url) => {
  const { default: open } = await import('open');
  return open(url);
};

/**
 * Opens a web page in the user's default browser, a separate application whose page content and
 * input the client and its model cannot read (never an embedded web view). Only http(s) URLs are
 * opened; anything else throws. `launch` replaces the OS launcher, for tests.
 */
export async function openInSystemBrowser(url: string, launch: UrlLauncher = launchWithOs): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new TypeError(`Refusing to open ${parsed.protocol} URLs: only web pages open in the browser.`);
  }
  await launch(parsed.href);
}
