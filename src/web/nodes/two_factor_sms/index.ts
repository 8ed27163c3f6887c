import type { PageKind } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/** A two_factor_sms node: a code sent by SMS. */
export const twoFactorSmsPage = {
  type: 'two_factor_sms',
  screen: () => import('./TwoFactorSmsScreen'),
  actor: serverOutcome(),
} satisfies PageKind<'two_factor_sms'>;
