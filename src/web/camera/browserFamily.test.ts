import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { browserFamily, denialHelpKey, type BrowserFamily } from './browserFamily';

// Real user agents of current browsers (as they send them in 2025–2026).
const AGENTS: [string, BrowserFamily][] = [
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'chromeDesktop',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
    'chromeDesktop',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'chromeDesktop',
  ],
  [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36',
    'chromeDesktop',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    'safariMac',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    'safariIos',
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
    'safariIos',
  ],
  // Chrome on iOS is WebKit with the same permission menu.
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
    'safariIos',
  ],
  [
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    'chromeAndroid',
  ],
  [
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.2903.87',
    'chromeAndroid',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36',
    'samsung',
  ],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'firefox'],
  ['Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0', 'firefox'],
  // An Android web view without Chrome's name, and something unknown: no steps.
  [
    'Mozilla/5.0 (Linux; U; Android 4.4.2; en-us; SCH-I535 Build/KOT49H) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30',
    'other',
  ],
  ['curl/8.5.0', 'other'],
  ['', 'other'],
];

describe('browserFamily', () => {
  for (const [ua, family] of AGENTS) {
    it(`${family}: ${ua.slice(0, 70)}…`, () => {
      expect(browserFamily(ua)).toBe(family);
    });
  }
});

describe('denialHelpKey', () => {
  it('names the steps of each family, none for an unknown browser', () => {
    expect(denialHelpKey(AGENTS[10]![0])).toBe('denialHelp.samsung');
    expect(denialHelpKey('curl/8.5.0')).toBeNull();
  });

  it('every family but "other" has its steps in the English locale (the others follow it)', () => {
    const help = (en as unknown as Record<string, Record<string, string>>)['denialHelp'] ?? {};
    for (const [ua] of AGENTS) {
      const key = denialHelpKey(ua);
      if (key) expect(help[key.split('.')[1]!], key).toEqual(expect.any(String));
    }
    expect(Object.keys(help).sort()).toEqual(
      ['chromeAndroid', 'chromeDesktop', 'firefox', 'safariIos', 'safariMac', 'samsung'].sort(),
    );
  });
});
