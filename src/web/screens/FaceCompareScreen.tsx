import { NotAvailableYet } from '../components/NotAvailableYet';
import type { ScreenProps } from './types';

/** The face_compare node. Face comparison with the camera comes with its own issue; until then, its place. */
export default function FaceCompareScreen(props: ScreenProps) {
  return <NotAvailableYet {...props} />;
}
