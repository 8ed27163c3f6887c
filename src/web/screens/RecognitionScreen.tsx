import { NotAvailableYet } from '../components/NotAvailableYet';
import type { ScreenProps } from './types';

/** The recognition node. Recognition with the camera comes with its own issue; until then, its place. */
export default function RecognitionScreen(props: ScreenProps) {
  return <NotAvailableYet {...props} />;
}
