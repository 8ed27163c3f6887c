import type { PageKind } from '../kind';
import { devicesOfPermissionsNode } from './devices';
import { serverOutcome } from '../../machine/serverOutcome';

/**
 * A permissions node: the page that asks for the camera and microphone (also shown in front of
 * a node that needs a device nobody asked for).
 */
export const permissionsPage = {
  type: 'permissions',
  screen: () => import('./PermissionsScreen'),
  asks: devicesOfPermissionsNode,
  actor: serverOutcome(),
} satisfies PageKind<'permissions'>;
