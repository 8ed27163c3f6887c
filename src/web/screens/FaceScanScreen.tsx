import { NotAvailableYet } from '../components/NotAvailableYet';
import type { ScreenProps } from './types';

/** The face_scan node. Face scan with the camera comes with its own issue; until then, its place. */
export default function FaceScanScreen(props: ScreenProps) {
  return <NotAvailableYet {...props} />;
}
