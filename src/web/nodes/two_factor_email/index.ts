import type { PageKind } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/** A two_factor_email node: a code sent by email. */
export const twoFactorEmailPage = {
  type: 'two_factor_email',
  screen: () => import('./TwoFactorEmailScreen'),
  actor: serverOutcome(),
} satisfies PageKind<'two_factor_email'>;
