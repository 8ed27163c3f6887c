import { expect, test, type Page } from '@playwright/test';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';

// The session's video (issue 22): a visible "Recording video" while it records, and the camera
// let go (every track stopped) as soon as no camera node can come, not at the end of the session.
test.use({ launchOptions: FAKE_MEDIA_LAUNCH });

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

const FLOW = [
  { id: 'start', type: 'start', outcome: 'live' },
  {
    id: 'live',
    type: 'liveness_detection',
    // The fake camera shows no face: the longest time limit, so the panel decides the node.
    timeoutSeconds: 600,
    outcomes: { livenessDetected: 'sms', deepfakeDetected: 'end', noFace: 'end' },
  },
  {
    id: 'sms',
    type: 'two_factor_sms',
    outcomes: { verified: 'end', failed_unverified: 'end', cancelled: 'end' },
  },
  { id: 'end', type: 'end' },
];

/** Every camera track the page gets or clones, so the spec can see whether any is still live. */
async function watchTracks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const tracks: MediaStreamTrack[] = [];
    (window as unknown as { __tracks: MediaStreamTrack[] }).__tracks = tracks;
    const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await getUserMedia(constraints);
      tracks.push(...stream.getVideoTracks());
      return stream;
    };
    const clone = MediaStreamTrack.prototype.clone;
    MediaStreamTrack.prototype.clone = function (this: MediaStreamTrack) {
      const copy = clone.call(this);
      if (copy.kind === 'video') tracks.push(copy);
      return copy;
    };
  });
}

const liveTracks = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __tracks: MediaStreamTrack[] }).__tracks.filter(
        (t) => t.readyState === 'live',
      ).length,
  );

test('"Recording video" shows while the video records; the camera goes off after the last camera node', async ({
  page,
}) => {
  await watchTracks(page);
  const { clientSecret } = await idv.createSession({ flow: FLOW }, idv.keys.test);
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  await page.goto(clientSecret.url);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  const notice = page.getByTestId('recording-notice');
  await expect(notice).toHaveText('Recording video', { timeout: 120_000 });
  expect(await liveTracks(page)).toBeGreaterThan(0);

  const panel = page.getByRole('complementary', {
    name: 'Tester: choose the outcome of this step',
  });
  await panel.getByRole('button', { name: /Live person detected/ }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Confirm your phone number' }),
  ).toBeVisible();
  // No camera node is left: no notice, no live camera track (the light goes off).
  await expect(notice).toHaveCount(0);
  await expect.poll(() => liveTracks(page)).toBe(0);
});
