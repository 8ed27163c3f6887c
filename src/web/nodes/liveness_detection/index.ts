import type { PageKind } from '../kind';
import { cameraOnly } from '../kind';
import { warmFaceDetector } from '../../camera/warmDetector';
import { serverOutcome } from '../../machine/serverOutcome';

/** A liveness_detection node: the camera, the oval and the server's challenges. */
export const livenessDetectionPage = {
  type: 'liveness_detection',
  // Fetching the screen (the page does it while the user is on the node before) also starts making
  // the face detector (its wasm and model fetched at low priority, then compiled), so the camera
  // step finds it ready.
  screen: () => {
    warmFaceDetector();
    return import('./LivenessScreen');
  },
  devices: cameraOnly,
  actor: serverOutcome(),
} satisfies PageKind<'liveness_detection'>;
