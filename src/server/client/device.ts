import UAParser from 'ua-parser-js';
import type { Device } from '../../core/api';

/**
 * The device of the first opening, from its User-Agent (ua-parser-js).
 *
 * @example
 * parseDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1');
 * // { browser: 'Mobile Safari', browserVersion: '17.4', os: 'iOS', osVersion: '17.4', platform: 'mobile', isMobile: true }
 */
export function parseDevice(userAgent: string | undefined): Device {
  const r = new UAParser(userAgent ?? '').getResult();
  const platform = r.device.type ?? 'desktop';
  return {
    browser: r.browser.name ?? null,
    browserVersion: r.browser.version ?? null,
    os: r.os.name ?? null,
    osVersion: r.os.version ?? null,
    platform,
    isMobile: platform === 'mobile' || platform === 'tablet' || platform === 'wearable',
  };
}
