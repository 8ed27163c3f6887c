import type { PageKind } from '../kind';

/** The start node: the server moves past it at once, so a position never rests on it. */
export const startPage = {
  type: 'start',
  screen: () => import('../../screens/WaitScreen'),
} satisfies PageKind<'start'>;
