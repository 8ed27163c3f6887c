/**
 * Frames are deleted once their attempt is decided (docs/lifecycle.md, "Liveness frames"): the
 * bytes and records of every frame go, what the report references (screenshots, the user photo,
 * copies made by the decision) stays, and the frames' analyses stay for the post-session
 * analyses. Through the routes, a real SQLite file and media folder; the analyzer is a stand-in
 * that sees one face in every frame (no model is needed to tell what is kept).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import {
  LIVENESS_FLOW,
  ONE_FACE_ANALYZER,
  ONE_FACE_SIZE,
  openLivenessApp,
  smallJpeg,
  type LivenessApp,
} from './test-support';

const clock = manualClock(Date.UTC(2025, 9, 1, 9));

describe('liveness frames after the decision', () => {
  let t: LivenessApp;
  let mediaDir: string;
  beforeAll(async () => {
    mediaDir = mkdtempSync(join(tmpdir(), 'idv-frames-'));
    t = await openLivenessApp(
      { clock, livenessWorker: 'manual', analyzer: ONE_FACE_ANALYZER },
      { mediaDir },
    );
  });
  afterAll(async () => {
    await t.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  const files = (sessionId: string) => {
    const dir = join(mediaDir, 'sessions', sessionId);
    return existsSync(dir) ? readdirSync(dir).filter((f) => !f.startsWith('.')) : [];
  };
  const kinds = (sessionId: string) =>
    (
      t.store.db
        .prepare('SELECT kind FROM media WHERE session_id = ? ORDER BY kind')
        .all(sessionId) as { kind: string }[]
    ).map((r) => r.kind);

  it('deletes every frame once decided, keeps the screenshots and user photo the report names', async () => {
    const s = await t.open(LIVENESS_FLOW);
    const start = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    expect(start.status).toBe(200);
    const base = `/nodes/live/liveness/${start.body.attemptId}`;
    const image = smallJpeg(ONE_FACE_SIZE);
    const frames = [
      { role: 'baseline', t: 0 },
      ...start.body.challenges.map((_: string, i: number) => ({
        role: 'challenge',
        challengeIndex: i,
        t: 500 + i * 500,
      })),
    ];
    for (const f of frames) {
      expect((await t.client(s.token, 'POST', `${base}/frames`, { ...f, image })).status).toBe(202);
    }
    expect(kinds(s.sessionId).every((k) => k === 'frame')).toBe(true);
    expect(files(s.sessionId)).toHaveLength(frames.length);
    expect((await t.client(s.token, 'POST', `${base}/finish`, { ended: 'done' })).status).toBe(202);
    await t.app.liveness.drain();
    expect((await t.client(s.token, 'GET', base)).body.status).toBe('decided');

    const session = await t.store.getSessionById(s.sessionId);
    const shots = session!.report.screenshots ?? [];
    expect(shots.length).toBeGreaterThan(0);
    expect(kinds(s.sessionId)).not.toContain('frame');
    expect(kinds(s.sessionId)).toContain('user_photo');
    // Only the copies are left on disk: one file per record.
    expect(files(s.sessionId)).toHaveLength(kinds(s.sessionId).length);
    for (const id of shots) expect(await t.app.ctx.media.read(id)).not.toBeNull();
    // The analyses stay with the frame rows, for the post-session analyses.
    const kept = await t.app.liveness.attempts.frames(start.body.attemptId);
    expect(kept).toHaveLength(frames.length);
    expect(kept.every((f) => f.analysis !== null)).toBe(true);
    expect(t.store.db.prepare('SELECT count(*) AS n FROM media_deletions').get()).toEqual({ n: 0 });
  });
});
