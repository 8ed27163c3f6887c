import type { PageKind } from '../kind';

/**
 * A data_validation node: the server runs the check by itself, so a position never rests on it.
 */
export const dataValidationPage = {
  type: 'data_validation',
  screen: () => import('../../screens/WaitScreen'),
} satisfies PageKind<'data_validation'>;
