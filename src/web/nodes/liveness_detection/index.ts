import type { PageKind } from '../kind';
import { cameraOnly } from '../kind';
import { prefetchFaceDetector } from '../../camera/prefetchDetector';
import { serverOutcome } from '../../machine/serverOutcome';

/** A liveness_detection node: the camera, the oval and the server's challenges. */
export const livenessDetectionPage = {
  type: 'liveness_detection',
  // Fetching the screen (the page does it while the user is on the node before) also starts the
  // face detector's wasm and model, so the camera step finds them cached.
  screen: () => {
    void prefetchFaceDetector();
    return import('./LivenessScreen');
  },
  devices: cameraOnly,
  actor: serverOutcome(),
} satisfies PageKind<'liveness_detection'>;
