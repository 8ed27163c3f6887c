/**
 * `face_compare`: the page asks the server to run the node (`POST /client/nodes/:id/run`); the
 * server compares the faces of its two sources at once (`src/server/faces/`).
 */
import type { ExternalCalls } from '../external/external-calls';
import type { Faces } from '../faces/faces';
import { runRoutes } from '../routes/runNode';
import type { ServerNode } from './types';

export const faceCompare: ServerNode<
  'face_compare',
  { faces: Faces; externalCalls: ExternalCalls }
> = { routes: [runRoutes] };
