import type { Static } from '@sinclair/typebox';
import { TargetSchema, nodeSchema } from './common';

/** The entry point: exactly one per flow; the session moves past it at once. */
export const StartNodeSchema = nodeSchema(
  'start',
  { outcome: TargetSchema },
  'Entry point. Exactly one per flow. `outcome` holds the id of the first node.',
);
export type StartNode = Static<typeof StartNodeSchema>;
