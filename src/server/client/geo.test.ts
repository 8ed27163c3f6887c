import { describe, expect, it } from 'vitest';
import { parseDevice } from './device';
import { geoLookup, isPrivate, plainIp } from './geo';

describe('GeoIP', () => {
  const geo = geoLookup();
  it('finds a public address in the shipped database', async () => {
    expect(await geo('81.2.69.142')).toMatchObject({
      city: 'Bracknell',
      country: 'GB',
      timezone: 'Europe/London',
    });
    expect(await geo('::ffff:81.2.69.142')).toMatchObject({ country: 'GB' });
    expect((await geo('2a00:1450:4001:81b::200e')).country).toBe('DE');
  });
  it('gives an empty location for loopback, private and malformed addresses', async () => {
    for (const ip of [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '192.168.0.9',
      'not-an-ip',
      '::ffff:127.0.0.1',
    ]) {
      expect(await geo(ip)).toEqual({});
    }
    expect(isPrivate('8.8.8.8')).toBe(false);
    expect(plainIp('::ffff:1.2.3.4')).toBe('1.2.3.4');
  });
});

describe('device', () => {
  it('parses desktop and mobile user agents', () => {
    expect(
      parseDevice(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      ),
    ).toEqual({
      browser: 'Chrome',
      browserVersion: '126.0.0.0',
      os: 'Linux',
      osVersion: null,
      platform: 'desktop',
      isMobile: false,
    });
    expect(
      parseDevice(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
      ),
    ).toMatchObject({
      os: 'Android',
      osVersion: '14',
      platform: 'mobile',
      isMobile: true,
    });
    expect(parseDevice(undefined).browser).toBeNull();
  });
});
