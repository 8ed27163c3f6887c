import type { PageKind } from '../kind';

/** A two_factor_email node: a code sent by email. */
export const twoFactorEmailPage = {
  type: 'two_factor_email',
  screen: () => import('./TwoFactorEmailScreen'),
} satisfies PageKind<'two_factor_email'>;
