import type { Static } from '@sinclair/typebox';
import { nodeSchema } from './common';

/** An exit point: reaching one ends the session `complete`. */
export const EndNodeSchema = nodeSchema(
  'end',
  {},
  'Exit point. At least one per flow. Reaching it ends the session complete.',
);
export type EndNode = Static<typeof EndNodeSchema>;
