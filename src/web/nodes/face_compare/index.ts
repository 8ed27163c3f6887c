import type { PageKind } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/** A face_compare node: the server compares two faces the session holds. */
export const faceComparePage = {
  type: 'face_compare',
  screen: () => import('./FaceCompareScreen'),
  // The camera only when one of the faces comes from the session's video.
  devices: (node) => ({
    camera: node.sourceA?.source === 'sessionVideo' || node.sourceB?.source === 'sessionVideo',
    microphone: false,
  }),
  actor: serverOutcome(),
} satisfies PageKind<'face_compare'>;
