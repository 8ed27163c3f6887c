/**
 * The IPv4 addresses an IPv6 address carries. A host reached through one of these forms is, in
 * the end, the IPv4 host, so the address policy must judge it by that address: `[::127.0.0.1]` is
 * loopback, `[64:ff9b::a9fe:a9fe]` is the metadata service.
 */
import { isIP } from 'node:net';

/**
 * The 16 bytes of an IPv6 literal (with or without a trailing dotted IPv4 part), or null when it
 * is not one. Brackets and a zone (`%eth0`) are the caller's to remove.
 *
 * @example
 * ipv6Bytes('::7f00:1'); // Uint8Array [0, …, 0, 127, 0, 0, 1]
 */
export function ipv6Bytes(ip: string): Uint8Array | null {
  if (isIP(ip) !== 6) return null;
  let text = ip.toLowerCase();
  const out = new Uint8Array(16);
  // A trailing dotted part (`::ffff:1.2.3.4`) stands for the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  let tailBytes: number[] = [];
  if (dotted) {
    tailBytes = dotted.slice(1, 5).map(Number);
    text = text.slice(0, dotted.index);
    // `::1.2.3.4` leaves `::`; `1::2:1.2.3.4` leaves `1::2:`. Either way the last ':' closes a group.
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const halves = text.split('::');
  const head = groups(halves[0]!);
  const tail = halves.length > 1 ? groups(halves[1]!) : [];
  const words = 8 - tailBytes.length / 2;
  const all = [...head, ...Array<number>(words - head.length - tail.length).fill(0), ...tail];
  all.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 255;
  });
  out.set(tailBytes, 2 * words);
  return out;
}

const v4 = (b: ArrayLike<number>) => Array.from(b).join('.');
const zero = (b: Uint8Array, from: number, to: number) =>
  b.subarray(from, to).every((x) => x === 0);
const starts = (b: Uint8Array, prefix: number[]) => prefix.every((x, i) => b[i] === x);

/**
 * Where an RFC 6052 translator with a prefix of each length inside `64:ff9b:1::/48` puts the
 * IPv4 address (byte 8 is always skipped), and where the suffix that must be zero begins.
 */
const LOCAL_NAT64: { at: number[]; suffixFrom: number }[] = [
  { at: [6, 7, 9, 10], suffixFrom: 11 }, // /48
  { at: [7, 9, 10, 11], suffixFrom: 12 }, // /56
  { at: [9, 10, 11, 12], suffixFrom: 13 }, // /64
  { at: [12, 13, 14, 15], suffixFrom: 16 }, // /96
];

/**
 * Every IPv4 address an IPv6 literal embeds, by the standard forms: IPv4-compatible `::a.b.c.d`
 * (not `::` or `::1`), IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64
 * `64:ff9b::/96` and the local-use `64:ff9b:1::/48` (each RFC 6052 position its prefix length
 * could use), 6to4 `2002:AABB:CCDD::/16`, Teredo `2001:0::/32` (the client address, stored
 * inverted in the last 32 bits) and an ISATAP interface id `…:0:5efe:a.b.c.d` (or `200:5efe`).
 * Empty when it embeds none; a non-IPv6 input gives none too.
 *
 * @example
 * embeddedIpv4('::ffff:0:7f00:1'); // ['127.0.0.1']
 * embeddedIpv4('2001:0:4136:e378:8000:63bf:3fff:fdd2'); // ['192.0.2.45'] (Teredo client)
 */
export function embeddedIpv4(ip: string): string[] {
  const b = ipv6Bytes(ip);
  if (!b) return [];
  const last4 = b.subarray(12, 16);
  if (zero(b, 0, 12)) {
    // `::` and `::1` are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones.
    return zero(b, 12, 15) && b[15]! <= 1 ? [] : [v4(last4)];
  }
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return [v4(last4)];
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12)) return [v4(last4)];
  if (starts(b, [0x00, 0x64, 0xff, 0x9b]) && zero(b, 4, 12)) return [v4(last4)];
  if (starts(b, [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01])) {
    // The prefix length is the local translator's choice, so every reading that fits the format
    // (byte 8 zero below /96, the suffix zero) counts. The zero bytes around a short prefix's
    // address read as 0.x.x.x at the longer positions: such readings (no host is there) count
    // only when there is no other.
    const readings = LOCAL_NAT64.filter(
      (p) => (p.suffixFrom === 16 || b[8] === 0) && zero(b, p.suffixFrom, 16),
    ).map((p) => p.at.map((i) => b[i]!));
    const hosts = readings.filter((r) => r[0] !== 0);
    return (hosts.length > 0 ? hosts : readings).map(v4);
  }
  if (starts(b, [0x20, 0x02])) return [v4(b.subarray(2, 6))];
  if (starts(b, [0x20, 0x01, 0x00, 0x00])) return [v4(last4.map((x) => ~x & 255))];
  if ((b[8] === 0x00 || b[8] === 0x02) && b[9] === 0 && b[10] === 0x5e && b[11] === 0xfe) {
    return [v4(last4)];
  }
  return [];
}
