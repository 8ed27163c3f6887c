/**
 * The server side of `external_call` nodes (docs/sdk-inputs.md, "external_call"): when the page
 * reaches the node it asks the server to run it (`POST /client/nodes/:id/run`); the server sends
 * the node's request to the integrator's endpoint and merges the scalar members of its JSON answer
 * into the session's `providedData`, then moves along the node's one `outcome`.
 *
 * - **Allowlist:** the URL's origin must be the origin of one of the account's webhook endpoints
 *   (same mode), registered with `idv webhooks add`; the address policy of webhooks applies.
 * - **Signing:** like a webhook, `X-Service-Signature: t=…,v1=…` with that endpoint's secrets, over
 *   the JSON body (POST) or over the path and query (GET, which has no body).
 * - **Time limit and retries:** each try gives up after `timeoutMs`; a timeout, a network error, a
 *   429 or a 5xx is tried again after each of `retryDelaysMs` (three tries in all by default);
 *   any other answer, or an address the policy refuses, is final.
 * - **Outcome:** `completed` when a 2xx answer came (its JSON object merged), else `failed`; both
 *   lead to the node's `outcome`. The node report says what happened.
 */
import type { ResolvedExternalCallNode } from '../../core/flow/kinds/external_call';
import { nodeDefaults } from '../../core/flow';
import { API_LIMITS } from '../../core/api';
import { signWebhookPayload, SIGNATURE_HEADER } from '../../sdk/signature';
import type { Clock } from '../clock';
import { requireCurrentOf, type SessionRecord, type StepGateway } from '../flow/gateway';
import { operandValue } from '../flow/fieldCondition';
import type { AddressPolicy } from '../webhooks/address-policy';
import { signingSecretsAt } from '../webhooks/secrets';
import type { WebhookEndpoint, WebhookStore } from '../webhooks/store';
import type { Promised } from '../store/promised';
import { httpCall, type CallResult } from './http-call';

export interface ExternalCallConfig {
  policy: AddressPolicy;
  /** One try's deadline. */
  timeoutMs: number;
  /** The waits before the second and later tries. */
  retryDelaysMs: readonly number[];
  /** The most of an answer read. */
  maxBodyBytes: number;
}

export const DEFAULT_EXTERNAL_CALL_CONFIG: ExternalCallConfig = {
  policy: 'local',
  timeoutMs: 5_000,
  retryDelaysMs: [500, 1_500],
  maxBodyBytes: 64 * 1024,
};

const USER_AGENT = 'open-idv-external-call/1';

export interface ExternalCallDeps {
  gateway: StepGateway;
  clock: Clock;
  /** SQLite's store answers at once, PostgreSQL's with a promise. */
  endpoints: Pick<WebhookStore | Promised<WebhookStore>, 'listEndpoints'>;
  config: ExternalCallConfig;
  /** Waits between tries (tests pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
}

export interface ExternalCalls {
  /** Runs the session's current external_call node and answers where the flow is then. */
  run(s: SessionRecord, nodeId: string): Promise<{ position: SessionRecord['position'] }>;
}

type Scalar = string | number | boolean;

/** What one run found: the outcome, the report, what joins providedData. */
interface CallOutcome {
  outcome: 'completed' | 'failed';
  report: Record<string, unknown>;
  merged: Record<string, Scalar>;
}

/**
 * The values a request sends, by var name: literals as given, references as read (null when the
 * value is missing).
 * @example requestValues(node, session) // { ref: 'x', score: null }
 */
export function requestValues(
  node: ResolvedExternalCallNode,
  s: SessionRecord,
): Record<string, Scalar | null> {
  const data = {
    providedData: s.settings.providedData,
    extractedData: s.report.extractedData ?? {},
  };
  return Object.fromEntries(
    (node.request.vars ?? []).map((v) => [v.name, operandValue(v.value, data) ?? null]),
  );
}

/**
 * The members of an answer that join providedData: the scalar members of a JSON object whose
 * keys and values fit the providedData limits; the others are listed as dropped.
 * @example mergeableMembers('{"score":72,"nested":{"a":1}}') // { ok: true, merged: { score: 72 }, dropped: ['nested'] }
 */
export function mergeableMembers(
  text: string,
): { ok: true; merged: Record<string, Scalar>; dropped: string[] } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { ok: false, error: 'the answer is not JSON' };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    return { ok: false, error: 'the answer is not a JSON object' };
  const merged: Record<string, Scalar> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(json)) {
    const fits =
      key.length >= 1 &&
      key.length <= API_LIMITS.maxMapKeyLength &&
      (typeof value === 'number' ||
        typeof value === 'boolean' ||
        (typeof value === 'string' && value.length <= API_LIMITS.maxMapValueLength));
    if (fits) merged[key] = value as Scalar;
    else dropped.push(key);
  }
  return { ok: true, merged, dropped };
}

/** Whether a try's result is worth another try. */
function retryable(r: CallResult): boolean {
  if (r.kind === 'response') return r.status === 429 || r.status >= 500;
  return r.kind !== 'blocked';
}

function describe(r: CallResult): string {
  switch (r.kind) {
    case 'response':
      return r.tooLarge
        ? `the answer is larger than allowed (HTTP ${r.status})`
        : `HTTP ${r.status}`;
    case 'timeout':
      return 'no answer in time';
    default:
      return r.message;
  }
}

/** The account endpoint whose origin is the URL's, the allowlist of external calls. */
function allowedEndpoint(
  endpoints: readonly WebhookEndpoint[],
  url: string,
): WebhookEndpoint | null {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return null;
  }
  return endpoints.find((e) => URL.canParse(e.url) && new URL(e.url).origin === origin) ?? null;
}

/**
 * The external calls of an app.
 *
 * @example
 * const calls = createExternalCalls({ gateway, clock, endpoints: createSqliteWebhookStore(db), config });
 * await calls.run(session, 'ext');
 */
export function createExternalCalls(deps: ExternalCallDeps): ExternalCalls {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const running = new Map<string, Promise<{ position: SessionRecord['position'] }>>();

  async function call(node: ResolvedExternalCallNode, s: SessionRecord): Promise<CallOutcome> {
    const fail = (error: string, extra: Record<string, unknown> = {}): CallOutcome => ({
      outcome: 'failed',
      report: { attempts: 0, merged: [], error, ...extra },
      merged: {},
    });
    const endpoint = allowedEndpoint(
      await deps.endpoints.listEndpoints({ accountId: s.accountId, mode: s.mode }),
      node.request.url,
    );
    if (!endpoint)
      return fail(
        `${new URL(node.request.url).origin} is not the origin of a webhook endpoint of the account (idv webhooks add)`,
      );
    const values = requestValues(node, s);
    const url = new URL(node.request.url);
    url.searchParams.set('sessionId', s.id);
    let body: Buffer | null = null;
    if (node.request.method === 'GET') {
      for (const [name, value] of Object.entries(values))
        if (value !== null) url.searchParams.set(name, String(value));
    } else {
      body = Buffer.from(JSON.stringify(values));
    }
    let result: CallResult = { kind: 'error', message: 'not tried' };
    let attempts = 0;
    for (let i = 0; i <= deps.config.retryDelaysMs.length; i++) {
      if (i > 0) await sleep(deps.config.retryDelaysMs[i - 1] ?? 0);
      const now = deps.clock.now();
      const secrets = signingSecretsAt(endpoint.secrets, now);
      const signed = body ?? Buffer.from(`${url.pathname}${url.search}`);
      attempts++;
      result = await httpCall({
        url: url.toString(),
        method: node.request.method,
        body,
        timeoutMs: deps.config.timeoutMs,
        policy: deps.config.policy,
        maxBodyBytes: deps.config.maxBodyBytes,
        headers: {
          Accept: 'application/json',
          'User-Agent': USER_AGENT,
          ...(body ? { 'Content-Type': 'application/json' } : {}),
          ...(secrets.length
            ? {
                [SIGNATURE_HEADER]: signWebhookPayload({
                  rawBody: signed,
                  secrets,
                  timestamp: now,
                }),
              }
            : {}),
        },
      });
      if (!retryable(result)) break;
    }
    const status = result.kind === 'response' ? { status: result.status } : {};
    if (
      result.kind !== 'response' ||
      result.status < 200 ||
      result.status >= 300 ||
      result.tooLarge
    )
      return fail(describe(result), { attempts, ...status });
    const members = mergeableMembers(result.body.toString('utf8'));
    if (!members.ok) return fail(members.error, { attempts, ...status });
    return {
      outcome: 'completed',
      report: {
        ...status,
        attempts,
        merged: Object.keys(members.merged),
        ...(members.dropped.length ? { dropped: members.dropped } : {}),
      },
      merged: members.merged,
    };
  }

  async function runOnce(s: SessionRecord, nodeId: string) {
    const node = requireCurrentOf(
      s,
      nodeId,
      ['external_call'],
      (n) => `node '${nodeId}' is a ${n.type} node, not an external_call node`,
    );
    const done = await call(nodeDefaults(node) as ResolvedExternalCallNode, s);
    const saved = await deps.gateway.move(
      s.id,
      nodeId,
      (cur) => ({
        session: {
          ...cur,
          settings: {
            ...cur.settings,
            providedData: { ...cur.settings.providedData, ...done.merged },
          },
        },
        outcome: done.outcome,
        report: done.report,
      }),
      { what: 'an external call', movedOn: 'ignore' },
    );
    return { position: saved.position };
  }

  return {
    run(s, nodeId) {
      // One call per node visit at a time: a second request waits for the first one's answer.
      const key = `${s.id}/${nodeId}`;
      const known = running.get(key);
      if (known) return known;
      const p = runOnce(s, nodeId).finally(() => running.delete(key));
      running.set(key, p);
      return p;
    },
  };
}
