import { afterEach, describe, expect, it } from 'vitest';
import type { Flow } from '../../core/flow';
import {
  jpegBytes,
  openMediaFixture,
  partsOf,
  PUBLIC_URL,
  T0,
  type MediaFixture,
} from '../media/test-support';
import { MEDIA_URL_TTL_MS } from '../media/types';
import { sessionRecord } from '../store/records';
import type { SessionRecord } from '../store/types';
import { carriesSignedMedia, presentSession } from './present';

const FLOW = [
  { id: 'start', type: 'start', outcome: 'live' },
  { id: 'live', type: 'liveness_detection', outcomes: { livenessDetected: 'end' } },
  { id: 'end', type: 'end' },
] as Flow;

function session(screenshots?: string[]): SessionRecord {
  return sessionRecord({
    id: 'sess_1',
    accountId: 'acct_1',
    status: 'complete',
    createdAt: T0 - 60_000,
    startedAt: T0 - 50_000,
    finishedAt: T0 - 1000,
    lastActivityAt: T0 - 1000,
    settings: { flow: FLOW },
    report: {
      transcript: [],
      nodeReports: [],
      isVerified: true,
      livenessDetected: true,
      ...(screenshots ? { screenshots } : {}),
    },
    rev: 3,
  });
}

let f: MediaFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

describe('presentSession with media', () => {
  it('shows the media ids of report.screenshots as fresh signed URLs that the service accepts', async () => {
    f = openMediaFixture();
    const shots: string[] = [];
    for (let i = 0; i < 3; i++) {
      const rec = await f.media.save({
        sessionId: 'sess_1',
        accountId: 'acct_1',
        mode: 'live',
        kind: 'screenshot',
        contentType: 'image/jpeg',
        bytes: jpegBytes(),
      });
      shots.push(rec.id);
    }
    const stored = session(shots);
    expect(carriesSignedMedia(stored)).toBe(true);

    const shown = (await presentSession(stored, f.media)).report;
    const first = shown.screenshots ?? [];
    expect(first).toHaveLength(3);
    first.forEach((url, i) => {
      const p = partsOf(url);
      expect(url.startsWith(`${PUBLIC_URL}/media/${shots[i]}?`)).toBe(true);
      expect(p.id).toBe(shots[i]);
      expect(Number(p.expires)).toBe(T0 + MEDIA_URL_TTL_MS);
      expect(f!.media.verify(p.id, p.expires, p.sig)).toBe('ok');
    });
    // The same media as the SDK's media objects (compat.md §4.11), with the same fresh URLs.
    expect(shown.media?.screenshots?.map((m) => m.id)).toEqual(shots);
    expect(shown.media?.screenshots?.[0]).toMatchObject({
      createdAt: T0,
      expireAt: T0 + MEDIA_URL_TTL_MS,
      contentType: 'image/jpeg',
      url: first[0],
    });
    // The stored report keeps ids; presenting never writes URLs into it.
    expect(stored.report.screenshots).toEqual(shots);

    // Read again after the first URLs expired: new URLs, valid from now.
    f.clock.advance(MEDIA_URL_TTL_MS + 1);
    const old = partsOf(first[0]!);
    expect(f.media.verify(old.id, old.expires, old.sig)).toBe('expired');
    const second = (await presentSession(stored, f.media)).report.screenshots ?? [];
    const fresh = partsOf(second[0]!);
    expect(Number(fresh.expires)).toBe(T0 + 2 * MEDIA_URL_TTL_MS + 1);
    expect(f.media.verify(fresh.id, fresh.expires, fresh.sig)).toBe('ok');
  });

  it('keeps existing callers as they were: no media, ids shown as stored', async () => {
    const stored = session(['med_0123456789abcdef01234567']);
    const report = (await presentSession(stored)).report;
    expect(report.screenshots).toEqual(stored.report.screenshots);
    expect(report.media).toBeUndefined();
  });

  it('leaves reports without media ids untouched', async () => {
    f = openMediaFixture();
    const none = session();
    expect(carriesSignedMedia(none)).toBe(false);
    expect((await presentSession(none, f.media)).report).toEqual(none.report);
    const external = session(['https://cdn.example/shot.jpg']);
    expect(carriesSignedMedia(external)).toBe(false);
    expect((await presentSession(external, f.media)).report.screenshots).toEqual([
      'https://cdn.example/shot.jpg',
    ]);
  });
});
