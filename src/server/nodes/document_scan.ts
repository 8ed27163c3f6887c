/**
 * `document_scan`: the page uploads photos of the document; the server reads and checks its
 * machine-readable zone and decides `scanSuccess` (`src/server/documents/`). The page may cancel
 * or end on time.
 */
import { documentRoutes } from '../documents/routes';
import type { Documents } from '../documents/service';
import type { ServerNode } from './types';

export const documentScan: ServerNode<'document_scan', { documents: Documents }> = {
  routes: [documentRoutes],
};
