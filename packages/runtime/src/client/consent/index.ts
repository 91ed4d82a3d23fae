// What a client must show before opening a URL-mode link, and how it opens one.
export {
  URL_WARNING_CODES,
  type UrlWarning,
  type UrlWarningCode,
  type WarningSeverity,
} from './url-warnings.js';
export * from './url-consent-prompt.js';
export * from './consent-text.js';
export * from './system-browser.js';
export * from './url-consent-handler.js';
