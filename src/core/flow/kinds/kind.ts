import type { Static, TObject } from '@sinclair/typebox';
import type { LooseNode, NodeIssue } from './common';

/**
 * Who decides an outcome of a node:
 * - `user`: the user's own choice, which the page reports (`POST /client/nodes/{id}/result`);
 * - `server`: the server, from what it checks itself (a code, a time limit, a reply, a data check);
 * - `analysis`: a server analysis of what was captured (liveness, faces, a document).
 *
 * Outside test mode the page may report only `user` outcomes; in test mode it may report any.
 */
export type Decider = 'user' | 'server' | 'analysis';

/** One outcome key of a fixed-outcome kind. */
export interface OutcomeRule {
  readonly decidedBy: Decider;
  /** It fails, or leaves undecided, the check the node makes: the session is then not verified. */
  readonly failing: boolean;
}

/** The outcome keys of a fixed-outcome kind, in the order the docs list them. */
export type OutcomeRules = Readonly<Record<string, OutcomeRule>>;

/** A step as `isVerified` sees it (see position.ts's PathStep). */
export interface StepSeen {
  outcome: string;
  result?: 'passed' | 'failed';
}

/** How the nodes of a kind route to the next node. */
export type KindRoutes =
  /** The start node: its `outcome` field names the first node, and the machine moves on at once. */
  | { readonly routing: 'entry' }
  /** An end node: reaching it ends the session `complete`. */
  | { readonly routing: 'exit' }
  /** An `outcomes` object keyed by the kind's fixed outcome keys. */
  | { readonly routing: 'fixed'; readonly outcomes: OutcomeRules }
  /**
   * An ordered `outcomes` array of `{ id, condition, targetNodeId }` chosen by `decidedBy`;
   * `failing` tells whether a step through one of them counts against `isVerified`.
   */
  | {
      readonly routing: 'conditional';
      readonly decidedBy: Decider;
      failing(step: StepSeen): boolean;
    }
  /**
   * Outcomes named after the node's own fields (field_condition's rules and default,
   * external_call's single next node), read by `computedRoutes` (computed-routes.ts), which the
   * page's light machine uses too. The server decides them by itself; they never count against
   * `isVerified`.
   */
  | { readonly routing: 'computed' };

/**
 * Everything the flow core knows of one node kind. One module per kind (`kinds/<type>.ts`)
 * exports one of these; `kinds/index.ts` lists them in `KINDS`, and every table of node types
 * (schemas, defaults, checks, outcomes, who decides them, the failing ones, the machine's actors)
 * is derived from that list (`kinds/tables.ts`).
 *
 * @example
 * export const end = {
 *   type: 'end',
 *   schema: EndNodeSchema,
 *   defaults: asSent<EndNode>(),
 *   routes: { routing: 'exit' },
 *   types: {} as { report: NoReport },
 * } as const satisfies Kind<'end', typeof EndNodeSchema, EndNode, NoReport>;
 */
export interface Kind<
  T extends string = string,
  S extends TObject = TObject,
  R = Static<S>,
  Report extends object = object,
> {
  /** The node type, as a flow's `type` field names it. */
  readonly type: T;
  /** The node as the integrator sends it (OpenAPI and validation). */
  readonly schema: S;
  /** The node with every optional field that has a default filled in. */
  defaults(node: Static<S>): R;
  /** Checks beyond the schema; they run on every node of the kind, valid or not. */
  check?(node: LooseNode): NodeIssue[];
  readonly routes: KindRoutes;
  /** Types only, as in XState's `setup({ types })`: what the node report's `report` holds. */
  readonly types: { readonly report: Report };
}

/** A kind of any type, as the tables see it. */
export type AnyKind = Kind<string, TObject, unknown, object>;

/** The node report of a kind that writes none (start and end are not in the path). */
export type NoReport = Record<string, never>;

/**
 * The defaults of a kind that has none: the node as it was sent.
 * @example asSent<EndNode>()({ id: 'e', type: 'end' }) // { id: 'e', type: 'end' }
 */
export function asSent<N>(): (node: N) => N {
  return (node) => node;
}

/**
 * The keys of a fixed-outcome kind's rules, in order, for its `outcomes` schema.
 * @example outcomeKeys({ match: { decidedBy: 'analysis', failing: false } }) // ['match']
 */
export function outcomeKeys<O extends OutcomeRules>(rules: O): (keyof O & string)[] {
  return Object.keys(rules) as (keyof O & string)[];
}
