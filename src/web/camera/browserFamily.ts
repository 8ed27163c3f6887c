/**
 * The browsers whose settings differ where a blocked camera or microphone is allowed again:
 * Chromium on a computer (Chrome, Edge, Opera), Safari on a Mac, anything on an iPhone or iPad
 * (all WebKit, with Safari's "aA" menu), Chrome on Android, Firefox, Samsung Internet.
 */
export type BrowserFamily =
  'chromeDesktop' | 'safariMac' | 'safariIos' | 'chromeAndroid' | 'firefox' | 'samsung' | 'other';

/**
 * The browser family of a user agent, for the steps that re-allow a blocked camera. The order
 * matters: Samsung Internet and Edge also say "Chrome", iOS browsers also say "Safari", and
 * Chromium browsers say "Safari" too.
 *
 * @example
 * browserFamily('Mozilla/5.0 (Linux; Android 14; SM-S918B) … SamsungBrowser/25.0 Chrome/121 Mobile Safari/537.36'); // 'samsung'
 * browserFamily('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) … Version/17.4 Mobile/15E148 Safari/604.1'); // 'safariIos'
 */
export function browserFamily(userAgent: string): BrowserFamily {
  const ua = userAgent;
  if (/SamsungBrowser\//.test(ua)) return 'samsung';
  if (/iPhone|iPad|iPod/.test(ua)) return 'safariIos';
  if (/Firefox\/|FxiOS\//.test(ua)) return 'firefox';
  if (/Android/.test(ua)) return /Chrome\/|EdgA\//.test(ua) ? 'chromeAndroid' : 'other';
  if (/Chrome\/|Chromium\/|Edg\//.test(ua)) return 'chromeDesktop';
  if (/Macintosh/.test(ua) && /Version\/[\d.]+.*Safari\//.test(ua)) return 'safariMac';
  return 'other';
}

/** The key of a family's steps (`denialHelp.*`), or null where no steps are known. */
export type DenialHelpKey = `denialHelp.${Exclude<BrowserFamily, 'other'>}`;

/**
 * The steps to allow a blocked camera or microphone again in the user's browser, as a locale key;
 * null for a browser the page has no steps for (the generic text stands alone).
 *
 * @example
 * denialHelpKey(navigator.userAgent); // 'denialHelp.chromeDesktop' in desktop Chrome
 */
export function denialHelpKey(userAgent: string): DenialHelpKey | null {
  const family = browserFamily(userAgent);
  return family === 'other' ? null : `denialHelp.${family}`;
}
