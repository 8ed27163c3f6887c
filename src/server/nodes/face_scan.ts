/**
 * `face_scan`: a capture through the liveness routes (challenges only when
 * `requireLivenessChallenge`), compared by the server with the reference image
 * (`src/server/liveness/` captures, `src/server/faces/` decides). The page may only cancel.
 */
import { livenessRoutes } from '../liveness/routes';
import type { Liveness } from '../liveness/service';
import type { ServerNode } from './types';

export const faceScan: ServerNode<'face_scan', { liveness: Liveness }> = {
  routes: [livenessRoutes],
};
