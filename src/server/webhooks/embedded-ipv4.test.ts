import { describe, expect, it } from 'vitest';
import { embeddedIpv4, ipv6Bytes } from './embedded-ipv4';

const hex = (b: Uint8Array | null) => (b ? Buffer.from(b).toString('hex') : null);

describe('ipv6Bytes', () => {
  it.each([
    ['::', '00000000000000000000000000000000'],
    ['::1', '00000000000000000000000000000001'],
    ['::7f00:1', '0000000000000000000000007f000001'],
    ['::127.0.0.1', '0000000000000000000000007f000001'],
    ['::FFFF:0:127.0.0.1', '0000000000000000ffff00007f000001'],
    ['1:2:3:4:5:6:1.2.3.4', '00010002000300040005000601020304'],
    ['1::2:1.2.3.4', '00010000000000000000000201020304'],
    ['2002:7f00:1::', '20027f00000100000000000000000000'],
    ['fe80:0:0:0:0:0:0:1', 'fe800000000000000000000000000001'],
  ])('%s', (ip, bytes) => {
    expect(hex(ipv6Bytes(ip))).toBe(bytes);
  });
  it('is null for what is not an IPv6 literal', () => {
    for (const ip of ['127.0.0.1', 'example.com', '1:::2', '[::1]', '']) {
      expect(ipv6Bytes(ip), ip).toBeNull();
    }
  });
});

describe('embeddedIpv4', () => {
  it.each([
    ['::127.0.0.1', ['127.0.0.1']], // IPv4-compatible (deprecated)
    ['::a9fe:a9fe', ['169.254.169.254']],
    ['::ffff:7f00:1', ['127.0.0.1']], // mapped
    ['::ffff:0:a9fe:a9fe', ['169.254.169.254']], // translated
    ['64:ff9b::7f00:1', ['127.0.0.1']], // NAT64
    ['64:ff9b:1::7f00:1', ['127.0.0.1']], // local-use NAT64, /96
    ['64:ff9b:1:7f00:0:100::', ['127.0.0.1']], // local-use NAT64, /48 (0.x readings dropped)
    ['64:ff9b:1::1', ['0.0.0.1']], // only a 0.x reading: kept
    ['2002:a9fe:a9fe::1', ['169.254.169.254']], // 6to4
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', ['192.0.2.45']], // Teredo: the inverted client
    ['2001:db8::5efe:a00:1', ['10.0.0.1']], // ISATAP
    ['2001:db8::200:5efe:a00:1', ['10.0.0.1']], // ISATAP, global bit
  ])('%s carries %j', (ip, want) => {
    expect(embeddedIpv4(ip)).toEqual(want);
  });
  it.each(['::', '::1', '2606:4700::1111', 'fe80::1', '2001:db8::1', '127.0.0.1', 'nope'])(
    '%s carries none',
    (ip) => {
      expect(embeddedIpv4(ip)).toEqual([]);
    },
  );
});
