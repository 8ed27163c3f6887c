/**
 * `open-idv/testing`: a kit for QA teams who test their own integration with Playwright. It
 * drives a test-mode session (made with an `sk_test_` key) along a path of outcomes through the
 * hosted page's tester panel, by roles and accessible names only. Nothing of the service is
 * imported, and Playwright only as types: the caller's own Playwright runs it.
 */
export {
  driveTestSession,
  type DriveOptions,
  type OutcomeStep,
  type StepTaken,
} from './driveTestSession';
export { currentNode, outcomeButton, testPanel } from './selectors';

/**
 * Chromium flags for a page that asks for the camera: a fake camera and microphone instead of
 * real ones (grant them with `context.grantPermissions(['camera', 'microphone'])`).
 *
 * @example
 * test.use({ launchOptions: { args: [...FAKE_MEDIA_ARGS] } });
 */
export const FAKE_MEDIA_ARGS = ['--use-fake-device-for-media-stream'] as const;
