/**
 * `external_call`: the page asks the server to run the node (`POST /client/nodes/:id/run`); the
 * server calls the integrator's endpoint and merges its answer into providedData
 * (`src/server/external/`).
 */
import type { ExternalCalls } from '../external/external-calls';
import type { Faces } from '../faces/faces';
import { runRoutes } from '../routes/runNode';
import type { ServerNode } from './types';

export const externalCall: ServerNode<
  'external_call',
  { faces: Faces; externalCalls: ExternalCalls }
> = { routes: [runRoutes] };
