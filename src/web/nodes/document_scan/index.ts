import type { PageKind } from '../kind';
import { cameraOnly } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/** A document_scan node: the back camera with a frame for the document. */
export const documentScanPage = {
  type: 'document_scan',
  screen: () => import('./DocumentScanScreen'),
  devices: cameraOnly,
  actor: serverOutcome(),
} satisfies PageKind<'document_scan'>;
