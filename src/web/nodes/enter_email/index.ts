import type { PageKind } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/** An enter_email node: the user types an address. */
export const enterEmailPage = {
  type: 'enter_email',
  screen: () => import('./EnterEmailScreen'),
  actor: serverOutcome(),
} satisfies PageKind<'enter_email'>;
