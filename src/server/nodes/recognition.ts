/**
 * `recognition`: run by the server on the page's request (`POST /client/nodes/:id/run`), which
 * compares the user photo with the account's known users (`src/server/faces/`).
 */
import type { Faces } from '../faces/faces';
import { faceRoutes } from '../faces/routes';
import type { ServerNode } from './types';

export const recognition: ServerNode<'recognition', { faces: Faces }> = { routes: [faceRoutes] };
