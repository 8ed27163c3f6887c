import type { Static } from '@sinclair/typebox';
import { nodeSchema } from './common';
import type { Kind, NoReport } from './kind';
import { asSent } from './kind';

/** An exit point: reaching one ends the session `complete`. */
export const EndNodeSchema = nodeSchema(
  'end',
  {},
  'Exit point. At least one per flow. Reaching it ends the session complete.',
);
export type EndNode = Static<typeof EndNodeSchema>;

/** The end kind: a final state of the machine. */
export const end = {
  type: 'end',
  schema: EndNodeSchema,
  defaults: asSent<EndNode>(),
  routes: { routing: 'exit' },
  types: {} as { report: NoReport },
} as const satisfies Kind<'end', typeof EndNodeSchema, EndNode, NoReport>;
