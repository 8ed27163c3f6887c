import type { PageKind } from '../kind';
import { cameraOnly } from '../kind';

/** A document_scan node: the back camera with a frame for the document. */
export const documentScanPage = {
  type: 'document_scan',
  screen: () => import('./DocumentScanScreen'),
  devices: cameraOnly,
} satisfies PageKind<'document_scan'>;
