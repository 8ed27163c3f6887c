/**
 * `recognition`: run by the server on the page's request (`POST /client/nodes/:id/run`), which
 * compares the user photo with the account's known users (`src/server/faces/`).
 */
import type { ExternalCalls } from '../external/external-calls';
import type { Faces } from '../faces/faces';
import { runRoutes } from '../routes/runNode';
import type { ServerNode } from './types';

export const recognition: ServerNode<
  'recognition',
  { faces: Faces; externalCalls: ExternalCalls }
> = { routes: [runRoutes] };
