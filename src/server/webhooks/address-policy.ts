/**
 * Which network addresses webhooks may be delivered to (SSRF protection). Checked on the address a
 * name resolves to at delivery time, on the very connection used, so a DNS answer that changes
 * between registration and delivery cannot sneak through.
 */
import { BlockList, isIP } from 'node:net';
import { embeddedIpv4 } from './embedded-ipv4';
import { userinfoOf } from './userinfo';

/**
 * - `none`: public addresses only.
 * - `local` (default): public, loopback and private networks (10/8, 172.16/12, 192.168/16,
 *   100.64/10, fc00::/7). Endpoints are registered by operators on the host itself, and local
 *   development posts to localhost.
 * - `all`: everything, including link-local and cloud metadata addresses.
 */
export type AddressPolicy = 'none' | 'local' | 'all';

export type AddressKind =
  'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'reserved';

const list = (entries: [string, number, 'ipv4' | 'ipv6'][]) => {
  const b = new BlockList();
  for (const [net, prefix, type] of entries) b.addSubnet(net, prefix, type);
  return b;
};

// Cloud metadata services that are not already in a link-local range.
const METADATA = list([
  ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud
  ['192.0.0.192', 32, 'ipv4'], // Oracle Cloud
  ['fd00:ec2::254', 128, 'ipv6'], // AWS over IPv6
]);
const LINK_LOCAL = list([
  ['169.254.0.0', 16, 'ipv4'], // includes 169.254.169.254 (AWS, GCP, Azure metadata)
  ['fe80::', 10, 'ipv6'],
]);
const RESERVED = list([
  ['0.0.0.0', 8, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
]);
const LOOPBACK = list([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const PRIVATE = list([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['198.18.0.0', 15, 'ipv4'],
  ['fc00::', 7, 'ipv6'],
]);

// How far a kind is from public: an address with several readings (an IPv6 form that embeds
// IPv4 addresses) is the furthest of them.
const SEVERITY: Record<AddressKind, number> = {
  public: 0,
  private: 1,
  loopback: 2,
  reserved: 3,
  'link-local': 4,
  metadata: 5,
};

function ownKind(bare: string, type: 'ipv4' | 'ipv6'): AddressKind {
  if (METADATA.check(bare, type)) return 'metadata';
  if (LINK_LOCAL.check(bare, type)) return 'link-local';
  if (RESERVED.check(bare, type)) return 'reserved';
  if (LOOPBACK.check(bare, type)) return 'loopback';
  if (PRIVATE.check(bare, type)) return 'private';
  return 'public';
}

/**
 * What kind of address an IP literal is. Metadata is checked before the wider ranges holding it.
 * An IPv6 address that embeds IPv4 addresses (mapped, compatible, translated, NAT64, 6to4, Teredo,
 * ISATAP: see embedded-ipv4.ts) is the least public of its own kind and theirs. The one rule for
 * webhooks and reference images alike.
 *
 * @example
 * classifyAddress('169.254.169.254'); // 'link-local'
 * classifyAddress('::ffff:127.0.0.1'); // 'loopback'
 * classifyAddress('[::7f00:1]'); // 'loopback' (IPv4-compatible 127.0.0.1)
 */
export function classifyAddress(ip: string): AddressKind {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) throw new Error(`not an IP address: ${ip}`);
  if (family === 4) return ownKind(bare, 'ipv4');
  return [ownKind(bare, 'ipv6'), ...embeddedIpv4(bare).map((a) => ownKind(a, 'ipv4'))].reduce(
    (worst, k) => (SEVERITY[k] > SEVERITY[worst] ? k : worst),
  );
}

/**
 * The kind of `ip` when the policy refuses it, else null. Webhooks and reference images both ask
 * this, and word the refusal their own way.
 *
 * @example
 * refusedKind('127.0.0.1', 'none'); // 'loopback'
 * refusedKind('127.0.0.1', 'local'); // null
 */
export function refusedKind(ip: string, policy: AddressPolicy): AddressKind | null {
  if (policy === 'all') return null;
  const kind = classifyAddress(ip);
  if (kind === 'public') return null;
  if (policy === 'local' && (kind === 'loopback' || kind === 'private')) return null;
  return kind;
}

/**
 * Whether a policy lets webhooks reach this address; when not, why (for the delivery's error).
 *
 * @example
 * addressRefusal('169.254.169.254', 'local'); // 'address 169.254.169.254 is link-local …'
 * addressRefusal('127.0.0.1', 'local'); // null
 */
export function addressRefusal(ip: string, policy: AddressPolicy): string | null {
  const kind = refusedKind(ip, policy);
  if (kind === null) return null;
  const allow = kind === 'loopback' || kind === 'private' ? 'local' : 'all';
  return `address ${ip} is ${kind}; webhooks may not be delivered there unless WEBHOOK_ALLOW_PRIVATE=${allow}`;
}

/**
 * Reads `WEBHOOK_ALLOW_PRIVATE`: unset → `local`; `all`/`true`/`1`/`yes` → `all`;
 * `none`/`false`/`0`/`no` → `none`; `local` → `local`. Anything else is an error.
 *
 * @example
 * parseAddressPolicy('true'); // 'all'
 */
export function parseAddressPolicy(value: string | undefined): AddressPolicy {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'local') return 'local';
  if (['all', 'true', '1', 'yes'].includes(v)) return 'all';
  if (['none', 'false', '0', 'no'].includes(v)) return 'none';
  throw new Error(`WEBHOOK_ALLOW_PRIVATE must be none, local or all; got ${JSON.stringify(value)}`);
}

/**
 * Every problem with a webhook URL before it is registered: http(s) only, a host, a user name
 * and password that decode cleanly (see userinfo.ts), and an IP literal host the policy refuses.
 * Names are checked again, resolved, at each delivery.
 *
 * @example
 * webhookUrlProblems('ftp://example.com/x', 'local'); // ['the URL must use http or https']
 */
export function webhookUrlProblems(raw: string, policy: AddressPolicy): string[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return ['the URL is not a valid absolute URL'];
  }
  const problems: string[] = [];
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push('the URL must use http or https');
  }
  const userinfo = userinfoOf(url);
  if (!userinfo.ok) problems.push(userinfo.problem);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') problems.push('the URL has no host');
  else if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, policy);
    if (refusal) problems.push(refusal);
  }
  return problems;
}
