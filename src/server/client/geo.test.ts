import { describe, expect, it } from 'vitest';
import { parseDevice } from './device';
import { geoLookup, isPrivate, plainIp } from './geo';

describe('GeoIP', () => {
  const geo = geoLookup();
  it('finds a public address in the shipped database', async () => {
    // GeoIP2 City records, as the original product's SDK reads them (compat.md §4.10).
    const gb = await geo('81.2.69.142');
    expect(gb).toMatchObject({
      city: { geonameId: 0, names: { en: 'Bracknell' } },
      country: { isoCode: 'GB', isInEuropeanUnion: false, names: { en: 'United Kingdom' } },
      location: { accuracyRadius: 0, timeZone: 'Europe/London' },
      postal: { code: 'RG12' },
    });
    expect(gb.location?.latitude).toBeCloseTo(51.4, 1);
    expect(gb.country?.names.de).toBe('Vereinigtes Königreich');
    expect((await geo('::ffff:81.2.69.142')).country?.isoCode).toBe('GB');
    const de = await geo('2a00:1450:4001:81b::200e');
    expect(de.country).toMatchObject({ isoCode: 'DE', isInEuropeanUnion: true });
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
  it('parses desktop and mobile user agents as express-useragent does', () => {
    const ua =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
    const desktop = parseDevice(ua);
    expect(desktop).toMatchObject({
      browser: 'Chrome',
      version: '126.0.0.0',
      os: 'Linux 64',
      platform: 'Linux',
      isDesktop: true,
      isMobile: false,
      isChrome: true,
      source: ua,
      geoIp: {},
    });
    // 41 booleans and six other members, nothing more.
    expect(Object.keys(desktop)).toHaveLength(47);
    expect(
      parseDevice(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
      ),
    ).toMatchObject({ os: 'Linux', platform: 'Android', isAndroid: true, isMobile: true });
    expect(parseDevice(undefined)).toMatchObject({ browser: 'unknown', version: 'unknown' });
  });
});
