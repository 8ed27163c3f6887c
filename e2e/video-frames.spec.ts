import { chromium, expect, test, type Browser, type Request } from '@playwright/test';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';
import { CAMERA_READY_MS, expectLivenessReady } from './support/pageChecks';

// The page samples a camera frame every 2 s for the video analysis only when the session has it
// on (`settings.videoAIAnalysisEnabled`): the server refuses the frames of any other session
// (400 `video_analysis_disabled`). The recording itself is uploaded either way, at the end, after
// the frames (sessionRecorder.ts): once it is sent, every frame the page meant to send was sent.

const FLOW = [
  { id: 'start', type: 'start', outcome: 'live' },
  {
    id: 'live',
    type: 'liveness_detection',
    challenges: 1,
    timeoutSeconds: 120,
    outcomes: {
      livenessDetected: 'end',
      deepfakeDetected: 'end',
      noFace: 'end',
      inconclusive: 'end',
    },
  },
  { id: 'end', type: 'end' },
];

let idv: IdvServer;
let browser: Browser;
test.beforeAll(async () => {
  idv = await startIdv();
  browser = await chromium.launch(FAKE_MEDIA_LAUNCH);
});
test.afterAll(async () => {
  await browser?.close();
  await idv?.stop();
});

for (const enabled of [true, false]) {
  test(`video analysis ${enabled ? 'on: frames are posted' : 'off: no frame is posted'}`, async () => {
    test.setTimeout(CAMERA_READY_MS + 120_000);
    const context = await browser.newContext();
    try {
      await context.grantPermissions(['camera'], { origin: idv.url });
      const page = await context.newPage();
      const frames: Request[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/client/video/frames') frames.push(r);
      });
      const refused: number[] = [];
      page.on('response', (r) => {
        if (new URL(r.url()).pathname === '/client/video/frames' && r.status() >= 400)
          refused.push(r.status());
      });
      const { clientSecret } = await idv.createSession(
        { flow: FLOW, videoAIAnalysisEnabled: enabled },
        idv.keys.live,
      );
      await page.goto(clientSecret.url);
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
      await expectLivenessReady(page);
      // With analysis on, the first frame goes as soon as the recording has a picture.
      if (enabled) await page.waitForRequest((r) => r.url().endsWith('/client/video/frames'));

      const video = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/client/video' && r.request().method() === 'POST',
        { timeout: 60_000 },
      );
      await page.getByRole('button', { name: 'Leave' }).click();
      await page.getByRole('button', { name: 'Yes, leave' }).click();
      expect((await video).status()).toBe(200);

      if (enabled) expect(frames.length).toBeGreaterThan(0);
      else expect(frames.map((r) => r.url())).toEqual([]);
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
