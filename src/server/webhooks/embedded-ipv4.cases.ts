/**
 * Test material: spellings of IPv6 addresses that embed an IPv4 address, one or more per form,
 * with the kind the address policy must give them. Shared by the webhook and reference-image tests
 * so both are held to the same table.
 */
import type { AddressKind } from './address-policy';

export interface EmbeddedSpelling {
  form: string;
  /** The IPv6 literal, without brackets. */
  ip: string;
  kind: AddressKind;
}

export const EMBEDDED_SPELLINGS: readonly EmbeddedSpelling[] = [
  { form: 'IPv4-compatible', ip: '::127.0.0.1', kind: 'loopback' },
  { form: 'IPv4-compatible', ip: '::7f00:1', kind: 'loopback' },
  { form: 'IPv4-compatible', ip: '::169.254.169.254', kind: 'link-local' },
  { form: 'IPv4-compatible', ip: '::a9fe:a9fe', kind: 'link-local' },
  { form: 'IPv4-compatible', ip: '::10.0.0.1', kind: 'private' },
  { form: 'IPv4-compatible', ip: '::100.100.100.200', kind: 'metadata' },
  { form: 'IPv4-compatible', ip: '::0.0.0.2', kind: 'reserved' },
  { form: 'IPv4-compatible', ip: '::8.8.8.8', kind: 'public' },
  { form: 'IPv4-mapped', ip: '::ffff:127.0.0.1', kind: 'loopback' },
  { form: 'IPv4-mapped', ip: '0:0:0:0:0:ffff:a9fe:a9fe', kind: 'link-local' },
  { form: 'IPv4-mapped', ip: '::ffff:192.168.0.1', kind: 'private' },
  { form: 'IPv4-mapped', ip: '::ffff:8.8.8.8', kind: 'public' },
  { form: 'IPv4-translated', ip: '::ffff:0:127.0.0.1', kind: 'loopback' },
  { form: 'IPv4-translated', ip: '::ffff:0:7f00:1', kind: 'loopback' },
  { form: 'IPv4-translated', ip: '::ffff:0:169.254.169.254', kind: 'link-local' },
  { form: 'IPv4-translated', ip: '::ffff:0:c0a8:1', kind: 'private' },
  { form: 'IPv4-translated', ip: '::ffff:0:8.8.8.8', kind: 'public' },
  { form: 'NAT64 64:ff9b::/96', ip: '64:ff9b::127.0.0.1', kind: 'loopback' },
  { form: 'NAT64 64:ff9b::/96', ip: '64:ff9b::a9fe:a9fe', kind: 'link-local' },
  { form: 'NAT64 64:ff9b::/96', ip: '64:ff9b::192.0.0.192', kind: 'metadata' },
  { form: 'NAT64 64:ff9b::/96', ip: '64:ff9b::8.8.8.8', kind: 'public' },
  { form: 'local NAT64 /96', ip: '64:ff9b:1::7f00:1', kind: 'loopback' },
  { form: 'local NAT64 /96', ip: '64:ff9b:1::169.254.169.254', kind: 'link-local' },
  { form: 'local NAT64 /96', ip: '64:ff9b:1::8.8.8.8', kind: 'public' },
  { form: 'local NAT64 /48', ip: '64:ff9b:1:7f00:0:100::', kind: 'loopback' },
  { form: 'local NAT64 /48', ip: '64:ff9b:1:a9fe:a9:fe00::', kind: 'link-local' },
  { form: 'local NAT64 /48', ip: '64:ff9b:1:808:8:800::', kind: 'public' },
  { form: '6to4', ip: '2002:7f00:1::', kind: 'loopback' },
  { form: '6to4', ip: '2002:a9fe:a9fe::1', kind: 'link-local' },
  { form: '6to4', ip: '2002:a00:1::1', kind: 'private' },
  { form: '6to4', ip: '2002:808:808::1', kind: 'public' },
  { form: 'Teredo', ip: '2001:0:4136:e378:8000:63bf:80ff:fffe', kind: 'loopback' },
  { form: 'Teredo', ip: '2001:0:4136:e378:8000:63bf:5601:5601', kind: 'link-local' },
  { form: 'Teredo', ip: '2001:0:4136:e378:8000:63bf:f5ff:fefe', kind: 'private' },
  { form: 'Teredo', ip: '2001:0:4136:e378:8000:63bf:f7f7:f7f7', kind: 'public' },
  { form: 'ISATAP', ip: '2001:db8::5efe:127.0.0.1', kind: 'loopback' },
  { form: 'ISATAP', ip: '2001:db8::200:5efe:a9fe:a9fe', kind: 'link-local' },
  { form: 'ISATAP', ip: 'fe80::5efe:808:808', kind: 'link-local' },
  { form: 'ISATAP', ip: '2606:4700::200:5efe:808:808', kind: 'public' },
];
