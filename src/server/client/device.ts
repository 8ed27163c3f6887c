import { UserAgent } from 'express-useragent';
import { DEVICE_FLAGS, type Device } from '../../core/api';

/** express-useragent's "not detected"; the original product's `device` follows its conventions. */
const UNKNOWN = 'unknown';

const text = (v: unknown): string =>
  (typeof v === 'string' || typeof v === 'number') && String(v) !== '' ? String(v) : UNKNOWN;

/**
 * The device of the first opening, from its User-Agent, as `express-useragent` parses it: the
 * 41 booleans and five strings of the original product's `device`, and an empty `geoIp`
 * (the report's `location` holds the place).
 *
 * @example
 * parseDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1');
 * // { isMobile: true, isiPhone: true, …, browser: 'Safari', version: '17.4', os: 'OS X', platform: 'iPhone', source: 'Mozilla/5.0 (iPhone; …', geoIp: {} }
 */
export function parseDevice(userAgent: string | undefined): Device {
  const source = userAgent ?? '';
  const agent = new UserAgent().hydrate(source).Agent as Record<string, unknown>;
  const flags = Object.fromEntries(DEVICE_FLAGS.map((f) => [f, agent[f] === true])) as Record<
    (typeof DEVICE_FLAGS)[number],
    boolean
  >;
  return {
    ...flags,
    browser: text(agent['browser']),
    version: text(agent['version']),
    os: text(agent['os']),
    platform: text(agent['platform']),
    source,
    geoIp: {},
  };
}
