/**
 * The post-session analyses of a 60-second session through the real routes (in-process `inject`,
 * real SQLite file, background workers, the real analyzer): 10 liveness frames and the 30 video
 * frames the page samples (one every 2 s), then the end; the figure is the time from the end to
 * the report holding aiAnalysis, a final deepfake status and videoAIAnalysis (spec: within 20 s).
 * "warm": the video frames arrived during the session and were analysed as they came (as in a real
 * 60-second session); "cold": all 30 arrived at the end, so all are analysed after it.
 * Skipped without the fixtures of `npm run fixtures`.
 */
import type { FaceAnalyzer } from '../src/server/face-analysis/analyzer';
import { createHumanAnalyzer } from '../src/server/face-analysis/human-analyzer';
import { sqliteAccountSettings } from '../src/server/session-analyses/account-settings';
import {
  fixtureJpeg,
  LIVENESS_FLOW,
  missingFixtures,
  openLivenessApp,
  type LivenessApp,
} from '../src/server/liveness/test-support';
import { summarize, type BenchRow } from './types';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function oneSession(t: LivenessApp, images: string[], warm: boolean): Promise<number> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/sessions',
    headers: { authorization: `Bearer ${t.keys.live}` },
    payload: { flow: LIVENESS_FLOW, videoAIAnalysisEnabled: true },
  });
  const { session, clientSecret } = created.json();
  const ex = await t.app.inject({
    method: 'POST',
    url: '/client/exchange',
    payload: { clientSecret: clientSecret.secret },
  });
  const token = ex.json().token as string;
  for (let i = 0; i < 30; i++) {
    await t.client(token, 'POST', '/video/frames', { t: i * 2000, image: images[i % 2]! });
  }
  if (warm) while ((await t.app.analyses.queue.pendingCount()) > 0) await sleep(50);
  const start = await t.client(token, 'POST', '/nodes/live/liveness/start', {});
  const base = `/nodes/live/liveness/${start.body.attemptId}`;
  const roles = ['baseline', 'between', 'challenge', 'between', 'challenge'];
  for (let i = 0; i < 10; i++) {
    const role = roles[i % roles.length]!;
    await t.client(token, 'POST', `${base}/frames`, {
      role,
      ...(role === 'challenge' ? { challengeIndex: i < 5 ? 0 : 1 } : {}),
      t: i * 600,
      image: images[0],
    });
  }
  await t.client(token, 'POST', `${base}/finish`, { ended: 'done' });
  let endedAt = 0;
  for (;;) {
    const s = await t.store.getSessionById(session.id);
    if (s && !endedAt && s.status === 'complete') endedAt = performance.now();
    const r = s?.report;
    const st = r?.deepfakeDetectionStatus?.['status'];
    if (endedAt && r?.aiAnalysis && r.videoAIAnalysis && st && st !== 'pending') {
      return performance.now() - endedAt;
    }
    await sleep(20);
  }
}

export default async function bench(): Promise<BenchRow[]> {
  const missing = missingFixtures(['astronaut.png', 'astronaut-rotated.png']);
  if (missing.length) {
    process.stderr.write(`analyses bench: skipped, run npm run fixtures (${missing.join(', ')})\n`);
    return [];
  }
  const analyzer: FaceAnalyzer = createHumanAnalyzer();
  await analyzer.load();
  const t = await openLivenessApp({ analyzer });
  try {
    const account = (await t.store.findAccount('acme'))!;
    await sqliteAccountSettings(t.store.db).setDeepfake(account.id, true, Date.now());
    const images = [fixtureJpeg('astronaut.png'), fixtureJpeg('astronaut-rotated.png')];
    const warm: number[] = [];
    const cold: number[] = [];
    for (let i = 0; i < 3; i++) warm.push(await oneSession(t, images, true));
    for (let i = 0; i < 2; i++) cold.push(await oneSession(t, images, false));
    const w = summarize(warm);
    return [
      {
        name: 'end → all report parts, 60 s session (warm), median',
        value: w.median,
        unit: 'ms',
        target: '< 20000 ms',
      },
      {
        name: 'end → all report parts, 60 s session (warm), worst',
        value: Math.max(...warm),
        unit: 'ms',
        target: '< 20000 ms',
      },
      {
        name: 'end → all report parts, 30 frames after the end (cold), worst',
        value: Math.max(...cold),
        unit: 'ms',
        target: '< 20000 ms',
      },
    ];
  } finally {
    await t.close();
    await analyzer.close();
  }
}
