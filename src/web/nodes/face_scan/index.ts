import type { PageKind } from '../kind';
import { cameraOnly } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/** A face_scan node: the liveness capture, then the server's comparison. */
export const faceScanPage = {
  type: 'face_scan',
  screen: () => import('./FaceScanScreen'),
  devices: cameraOnly,
  actor: serverOutcome(),
} satisfies PageKind<'face_scan'>;
