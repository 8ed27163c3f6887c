import type { PageKind } from '../kind';

/** An enter_email node: the user types an address. */
export const enterEmailPage = {
  type: 'enter_email',
  screen: () => import('./EnterEmailScreen'),
} satisfies PageKind<'enter_email'>;
