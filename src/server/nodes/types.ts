/**
 * What the server side of a node kind is (`src/server/nodes/<type>.ts`): the client routes the
 * kind answers, the move the server makes by itself on it, and how the page's report of one of
 * its user outcomes becomes session data. Every part is optional: a kind the server has nothing
 * to do for is `NO_SERVER_WORK`.
 */
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { NodeByType, NodeType } from '../../core/flow';
import type { AutomaticMove, SessionRecord } from '../flow/gateway';

/**
 * What the client scope gives a kind's routes: the request's session, and the `schema:` of a
 * client route (Fastify checks its body against it, every problem at once as a
 * `validation_error`, and the OpenAPI document shows it).
 */
export interface ClientRequests {
  /** The session the request's client token opened (set by the scope's token hook). */
  session(request: FastifyRequest): SessionRecord;
  /** A client route's options: what it does, the body it takes (or null), its answer. */
  route(summary: string, body: TSchema | null, answer: TSchema): RouteShorthandOptions;
  /** An answer that ends with where the flow now is, after the `extra` fields. */
  nodeAnswer(extra?: Record<string, TSchema>): TSchema;
}

/**
 * Adds a kind's routes under `/client`, inside the client-token scope. A set shared by several
 * kinds (the same function) is registered once.
 */
export type NodeRoutes<D> = (
  app: FastifyInstance,
  deps: D,
  client: ClientRequests,
) => void | Promise<void>;

/** What the page reported with a user outcome, as the node report and extracted data. */
export interface AcceptedResult {
  report: Record<string, unknown> | undefined;
  /** Merged into the report's `extractedData` (what later nodes such as data_validation read). */
  extractedData?: Record<string, string>;
}

export interface ServerNode<T extends NodeType, D = unknown> {
  /** The kind's client routes. */
  readonly routes?: readonly NodeRoutes<D>[];
  /** The kind runs without a user: the move the server makes as soon as a session arrives. */
  readonly automatic?: (node: NodeByType[T], s: SessionRecord, now: number) => AutomaticMove;
  /**
   * Checks the report that comes with a user outcome (`POST /client/nodes/:id/result`) and says
   * what it records; throws an `ApiError` to refuse. Without it the report is recorded as sent.
   */
  readonly acceptResult?: (
    outcome: string,
    report: Record<string, unknown> | undefined,
    o: { testMode: boolean },
  ) => AcceptedResult;
}

/**
 * The explicit "nothing to do" of kinds that the page and the compiled machine handle alone
 * (start, end, permissions): the map of every kind names it rather than leaving a gap.
 */
export const NO_SERVER_WORK = Object.freeze({}) satisfies ServerNode<NodeType>;
