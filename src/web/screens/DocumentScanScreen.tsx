import { NotAvailableYet } from '../components/NotAvailableYet';
import type { ScreenProps } from './types';

/** The document_scan node. Document scan with the camera comes with its own issue; until then, its place. */
export default function DocumentScanScreen(props: ScreenProps) {
  return <NotAvailableYet {...props} />;
}
