import type { PageKind } from '../kind';
import { cameraOnly } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/** A liveness_detection node: the camera, the oval and the server's challenges. */
export const livenessDetectionPage = {
  type: 'liveness_detection',
  screen: () => import('./LivenessScreen'),
  devices: cameraOnly,
  actor: serverOutcome(),
} satisfies PageKind<'liveness_detection'>;
