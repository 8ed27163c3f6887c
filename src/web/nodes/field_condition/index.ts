import type { PageKind } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/**
 * A field_condition node: the server tries its rules by itself, so a position never rests on it.
 */
export const fieldConditionPage = {
  type: 'field_condition',
  screen: () => import('../../screens/WaitScreen'),
  actor: serverOutcome(),
} satisfies PageKind<'field_condition'>;
