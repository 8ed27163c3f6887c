import { afterEach, describe, expect, it } from 'vitest';
import { displayUrl, registerEndpoint, rotateEndpointSecret } from './endpoints';
import { createSqliteWebhookStore } from './sqlite-store';
import { openTempStore, type TempStore } from './test-support';
import { promised } from '../store/promised';

let temp: TempStore | undefined;
afterEach(async () => {
  await temp?.close();
  temp = undefined;
});

describe('registerEndpoint', () => {
  it('stores the normalised URL, the event types and a fresh secret', async () => {
    temp = openTempStore();
    const store = createSqliteWebhookStore(temp.db);
    const r = await registerEndpoint(promised(store), {
      accountId: 'acct_a',
      mode: 'live',
      url: 'HTTPS://Example.COM/hook',
      events: 'media.*',
      policy: 'none',
      now: 7,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(store.getEndpoint(r.endpoint.id)).toEqual({
      id: r.endpoint.id,
      accountId: 'acct_a',
      mode: 'live',
      url: 'https://example.com/hook',
      eventTypes: ['media.*'],
      secrets: [{ secret: r.secret, createdAt: 7, expiresAt: null }],
      createdAt: 7,
    });
  });

  it('refuses with every problem at once', async () => {
    temp = openTempStore();
    const store = createSqliteWebhookStore(temp.db);
    const r = await registerEndpoint(promised(store), {
      accountId: 'acct_a',
      mode: 'staging',
      url: 'http://127.0.0.1/x',
      events: 'nope',
      policy: 'none',
      now: 0,
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toHaveLength(3);
    expect(store.listEndpoints()).toEqual([]);
  });
});

describe('rotateEndpointSecret', () => {
  it('puts the new secret first and retires the old one in 24 hours', async () => {
    temp = openTempStore();
    const store = createSqliteWebhookStore(temp.db);
    const r = await registerEndpoint(promised(store), {
      accountId: 'a',
      mode: 'test',
      url: 'https://x.example/',
      policy: 'local',
      now: 0,
    });
    if (!r.ok) throw new Error('not registered');
    const rotated = (await rotateEndpointSecret(promised(store), r.endpoint.id, 1_000))!;
    expect(rotated.endpoint.secrets.map((s) => [s.secret, s.expiresAt])).toEqual([
      [rotated.secret, null],
      [r.secret, 1_000 + 24 * 60 * 60 * 1000],
    ]);
    expect(await rotateEndpointSecret(promised(store), 'we_missing', 0)).toBeNull();
  });
});

describe('displayUrl', () => {
  it('masks a password and leaves the rest', () => {
    expect(displayUrl('https://user:pw@example.com/hook?a=1')).toBe(
      'https://user:***@example.com/hook?a=1',
    );
    expect(displayUrl('https://example.com/hook')).toBe('https://example.com/hook');
  });
});
