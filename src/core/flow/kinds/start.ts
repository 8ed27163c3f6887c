import type { Static } from '@sinclair/typebox';
import { TargetSchema, nodeSchema } from './common';
import type { Kind, NoReport } from './kind';
import { asSent } from './kind';

/** The entry point: exactly one per flow; the session moves past it at once. */
export const StartNodeSchema = nodeSchema(
  'start',
  { outcome: TargetSchema },
  'Entry point. Exactly one per flow. `outcome` holds the id of the first node.',
);
export type StartNode = Static<typeof StartNodeSchema>;

/** The start kind: no work, no outcome to choose; the machine moves on at once. */
export const start = {
  type: 'start',
  schema: StartNodeSchema,
  defaults: asSent<StartNode>(),
  routes: { routing: 'entry' },
  types: {} as { report: NoReport },
} as const satisfies Kind<'start', typeof StartNodeSchema, StartNode, NoReport>;
