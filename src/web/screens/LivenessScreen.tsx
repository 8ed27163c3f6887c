import { NotAvailableYet } from '../components/NotAvailableYet';
import type { ScreenProps } from './types';

/** The liveness_detection node. Liveness detection with the camera comes with its own issue; until then, its place. */
export default function LivenessScreen(props: ScreenProps) {
  return <NotAvailableYet {...props} />;
}
