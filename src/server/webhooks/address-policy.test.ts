import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  classifyAddress,
  parseAddressPolicy,
  refusedKind,
  webhookUrlProblems,
} from './address-policy';
import { EMBEDDED_SPELLINGS } from './embedded-ipv4.cases';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['100.100.100.200', 'metadata'],
    ['192.0.0.192', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['ff02::1', 'reserved'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it('refuses what is not an IP', () => {
    expect(() => classifyAddress('example.com')).toThrow();
  });
});

describe('addressRefusal', () => {
  const table: [string, string | null, string | null, string | null][] = [
    // ip, under none, under local, under all (null = allowed; else a word of the reason)
    ['8.8.8.8', null, null, null],
    ['127.0.0.1', 'loopback', null, null],
    ['10.0.0.1', 'private', null, null],
    ['169.254.169.254', 'link-local', 'link-local', null],
    ['100.100.100.200', 'metadata', 'metadata', null],
    ['0.0.0.0', 'reserved', 'reserved', null],
  ];
  it.each(table)('%s: none → %s, local → %s, all → %s', (ip, none, local, all) => {
    const check = (policy: 'none' | 'local' | 'all', want: string | null) => {
      const got = addressRefusal(ip, policy);
      if (want === null) expect(got).toBeNull();
      else expect(got).toContain(want);
    };
    check('none', none);
    check('local', local);
    check('all', all);
  });

  it('says which setting would allow it', () => {
    expect(addressRefusal('169.254.169.254', 'local')).toContain('WEBHOOK_ALLOW_PRIVATE=all');
    expect(addressRefusal('127.0.0.1', 'none')).toContain('WEBHOOK_ALLOW_PRIVATE=local');
  });
});

describe('parseAddressPolicy', () => {
  it.each([
    [undefined, 'local'],
    ['', 'local'],
    ['local', 'local'],
    ['all', 'all'],
    ['true', 'all'],
    ['1', 'all'],
    ['none', 'none'],
    ['false', 'none'],
    ['0', 'none'],
  ])('%j → %s', (v, want) => {
    expect(parseAddressPolicy(v)).toBe(want);
  });
  it('refuses anything else', () => {
    expect(() => parseAddressPolicy('maybe')).toThrow(/none, local or all/);
  });
});

describe('webhookUrlProblems', () => {
  it('accepts http and https URLs with a host', () => {
    expect(webhookUrlProblems('https://api.example.com/hooks?x=1', 'local')).toEqual([]);
    expect(webhookUrlProblems('http://localhost:4000/hooks', 'local')).toEqual([]);
  });
  it.each([
    ['not a url', 'not a valid absolute URL'],
    ['ftp://example.com/x', 'http or https'],
    ['file:///etc/passwd', 'http or https'],
    ['http://169.254.169.254/latest', 'link-local'],
    ['http://[fe80::1]/x', 'link-local'],
    ['http://[::ffff:169.254.169.254]/', 'link-local'],
    ['http://0x7f.1/', null], // WHATWG turns it into 127.0.0.1: loopback, allowed under local
  ])('%s', (url, problem) => {
    const problems = webhookUrlProblems(url, 'local');
    if (problem === null) expect(problems).toEqual([]);
    else expect(problems.join(' ')).toContain(problem);
  });
  it('refuses a user name or password that does not decode, and keeps one that does', () => {
    expect(webhookUrlProblems('https://user:%zz@example.com/hook', 'local')).toEqual([
      "the URL's password is not valid percent-encoding (a % must start %XX of UTF-8)",
    ]);
    expect(webhookUrlProblems('https://user:p%40ss@example.com/hook', 'local')).toEqual([]);
  });
  it('refuses loopback literals under "none"', () => {
    expect(webhookUrlProblems('http://0x7f.1/', 'none').join(' ')).toContain('loopback');
  });
});

describe('IPv6 forms that embed an IPv4 address are judged by that address', () => {
  it.each(EMBEDDED_SPELLINGS)('$form $ip is $kind', ({ ip, kind }) => {
    expect(classifyAddress(ip)).toBe(kind);
    expect(classifyAddress(`[${ip}]`)).toBe(kind);
  });

  const refusedUnder = (policy: 'none' | 'local', kind: string) =>
    kind !== 'public' && !(policy === 'local' && (kind === 'loopback' || kind === 'private'));

  it.each(EMBEDDED_SPELLINGS)('registering http://[$ip]/ ($form)', ({ ip, kind }) => {
    for (const policy of ['none', 'local'] as const) {
      const problems = webhookUrlProblems(`http://[${ip}]:8080/hook`, policy);
      if (refusedUnder(policy, kind)) {
        expect(problems.join(' '), policy).toContain(`is ${kind}`);
        expect(refusedKind(ip, policy)).toBe(kind);
      } else {
        expect(problems, policy).toEqual([]);
        expect(refusedKind(ip, policy)).toBeNull();
      }
    }
    expect(webhookUrlProblems(`http://[${ip}]/hook`, 'all')).toEqual([]);
  });
});
