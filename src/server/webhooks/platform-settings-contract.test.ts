/**
 * One suite, both platform settings: a change of the avatar or language lists and its
 * `settings.*` event are kept together or not at all, on SQLite and on PostgreSQL.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AvatarRecord } from '../store/types';
import { pgFeatures, sqliteFeatures, type FeatureConnection } from '../test/featureStores';

const nova: AvatarRecord = {
  id: 'ava_test',
  name: 'Test',
  gender: 'unknown',
  imageUrl: '/avatars/test.svg',
  createdAt: 5,
};

describe.each([sqliteFeatures(), pgFeatures()])('the $name platform settings', (subject) => {
  let c: FeatureConnection;
  const others: FeatureConnection[] = [];
  const another = async () => {
    const o = await subject.open();
    others.push(o);
    return o;
  };
  /** The platform events written so far, as `[type, payload.type]`. */
  const platformEvents = async () =>
    (await c.store.listEvents({ sessionId: '' })).map((e) => {
      const body = JSON.parse(e.payload) as { id: string; type: string; sessionId: string };
      expect(body).toMatchObject({ id: e.id, type: e.type, sessionId: '' });
      return [e.type, e.accountId, e.id] as const;
    });

  beforeAll(() => subject.setup(), 60_000);
  afterAll(() => subject.teardown());
  beforeEach(async () => {
    await subject.fresh();
    c = await subject.open();
  });
  afterEach(async () => {
    await c.close();
    for (const o of others.splice(0)) await o.close();
  });

  it('writes an avatar change with its settings.avatars event', async () => {
    const other = await another();
    const r = await c.platform.change('settings.avatars', 5, async (tx) => {
      expect(await tx.getAvatar(nova.id)).toBeNull();
      await tx.upsertAvatar(nova);
      return true;
    });
    expect(r.changed).toBe(true);
    expect(await other.store.getAvatar(nova.id)).toEqual(nova);
    expect(await platformEvents()).toEqual([['settings.avatars', '', r.eventId]]);

    const removed = await other.platform.change('settings.avatars', 6, (tx) =>
      tx.deleteAvatar(nova.id),
    );
    expect(removed.changed).toBe(true);
    expect(await c.store.getAvatar(nova.id)).toBeNull();
    expect((await platformEvents()).map((e) => e[2])).toEqual([r.eventId, removed.eventId]);
  });

  it('writes no event when nothing changed', async () => {
    const r = await c.platform.change('settings.avatars', 5, (tx) => tx.deleteAvatar('ava_none'));
    expect(r).toEqual({ changed: false, eventId: null });
    const again = await c.platform.change('settings.langs', 5, (tx) =>
      tx.addLang('en', 'English', 0),
    );
    expect(again).toEqual({ changed: false, eventId: null });
    expect(await platformEvents()).toEqual([]);
  });

  it('keeps neither the change nor the event when the change fails', async () => {
    await expect(
      c.platform.change('settings.avatars', 5, async (tx) => {
        await tx.upsertAvatar(nova);
        throw new Error('boom');
      }),
    ).rejects.toThrow(/boom/);
    expect(await c.store.getAvatar(nova.id)).toBeNull();
    expect(await platformEvents()).toEqual([]);
  });

  it('removes a language and lists it again at its place', async () => {
    const ids = async () => (await c.store.listLangs()).map((l) => l.id);
    const before = await ids();
    expect(before).toContain('es');
    const removed = await c.platform.change('settings.langs', 5, (tx) => tx.removeLang('es'));
    expect(removed.changed).toBe(true);
    expect(await ids()).toEqual(before.filter((l) => l !== 'es'));
    const added = await c.platform.change('settings.langs', 6, (tx) =>
      tx.addLang('es', 'Español', before.indexOf('es')),
    );
    expect(added.changed).toBe(true);
    expect(await ids()).toEqual(before);
    expect((await platformEvents()).map((e) => e[0])).toEqual(['settings.langs', 'settings.langs']);
  });
});
