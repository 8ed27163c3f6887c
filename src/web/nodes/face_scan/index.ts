import type { PageKind } from '../kind';
import { cameraOnly } from '../kind';
import { warmFaceDetector } from '../../camera/warmDetector';
import { serverOutcome } from '../../machine/serverOutcome';

/** A face_scan node: the liveness capture, then the server's comparison. */
export const faceScanPage = {
  type: 'face_scan',
  // Fetching the screen (the page does it while the user is on the node before) also starts making
  // the face detector (its wasm and model fetched at low priority, then compiled), so the camera
  // step finds it ready.
  screen: () => {
    warmFaceDetector();
    return import('./FaceScanScreen');
  },
  devices: cameraOnly,
  actor: serverOutcome(),
} satisfies PageKind<'face_scan'>;
