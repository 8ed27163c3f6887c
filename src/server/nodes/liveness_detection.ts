/**
 * `liveness_detection`: the page captures frames while the user does the challenges the server
 * picked; the server's own analysis decides the outcome (`src/server/liveness/`). The page never
 * reports it.
 */
import { livenessRoutes } from '../liveness/routes';
import type { Liveness } from '../liveness/service';
import type { ServerNode } from './types';

export const livenessDetection: ServerNode<'liveness_detection', { liveness: Liveness }> = {
  routes: [livenessRoutes],
};
