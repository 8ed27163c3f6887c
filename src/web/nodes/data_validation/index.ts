import type { PageKind } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/**
 * A data_validation node: the server runs the check by itself, so a position never rests on it.
 */
export const dataValidationPage = {
  type: 'data_validation',
  screen: () => import('../../screens/WaitScreen'),
  actor: serverOutcome(),
} satisfies PageKind<'data_validation'>;
