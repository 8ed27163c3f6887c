import type { PageKind } from '../kind';

/** An end node: the session is over once it is reached (App shows the end screen). */
export const endPage = {
  type: 'end',
  screen: () => import('../../screens/WaitScreen'),
} satisfies PageKind<'end'>;
