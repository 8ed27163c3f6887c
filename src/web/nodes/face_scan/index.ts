import type { PageKind } from '../kind';
import { cameraOnly } from '../kind';
import { prefetchFaceDetector } from '../../camera/prefetchDetector';
import { serverOutcome } from '../../machine/serverOutcome';

/** A face_scan node: the liveness capture, then the server's comparison. */
export const faceScanPage = {
  type: 'face_scan',
  // Fetching the screen (the page does it while the user is on the node before) also starts the
  // face detector's wasm and model, so the camera step finds them cached.
  screen: () => {
    void prefetchFaceDetector();
    return import('./FaceScanScreen');
  },
  devices: cameraOnly,
  actor: serverOutcome(),
} satisfies PageKind<'face_scan'>;
