/**
 * A mixed load against a running service (the multi-instance test and the scale bench): API
 * creates with an `Idempotency-Key`, and users going through a liveness step on the client API,
 * whose frames and decision are jobs.
 */
import { randomUUID } from 'node:crypto';

/** start → liveness (one challenge, one attempt) → an end per outcome. */
export const LOAD_LIVENESS_FLOW = [
  { id: 'start', type: 'start', outcome: 'live' },
  {
    id: 'live',
    type: 'liveness_detection',
    challenges: 1,
    timeoutSeconds: 10,
    maxAttempts: 1,
    outcomes: {
      livenessDetected: 'passed',
      deepfakeDetected: 'fake',
      noFace: 'noface',
      inconclusive: 'unsure',
    },
  },
  { id: 'passed', type: 'end' },
  { id: 'fake', type: 'end' },
  { id: 'noface', type: 'end' },
  { id: 'unsure', type: 'end' },
];

const CREATE_FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    outcomes: { permissionsGranted: 'done', permissionsDenied: 'done' },
  },
  { id: 'done', type: 'end' },
];

export interface LoadTally {
  /** Sessions whose create was answered 200: each must exist afterwards. */
  acknowledged: string[];
  /** Creates answered 502 or cut off, then retried with the same key. */
  createRetries: number;
  /** Liveness attempts whose `finish` was accepted: each must be decided. */
  finished: { sessionId: string; token: string; attemptId: string }[];
  /** Client steps refused or cut off by the kill: that user gave up the session (counted). */
  abandoned: number;
}

interface Call {
  status: number;
  // Answers are read field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

async function call(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Call> {
  try {
    const r = await fetch(base + path, {
      method,
      headers: {
        ...headers,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await r.text();
    return { status: r.status, body: text ? (JSON.parse(text) as unknown) : null };
  } catch {
    // The connection broke (the instance died mid-request): as a proxy's 502.
    return { status: 502, body: null };
  }
}

/** How long an integrator's retry loop keeps one create going: past the 30 s a dead create's key is held. */
const CREATE_GIVE_UP_MS = 60_000;

/**
 * Creates a session, retrying with the same `Idempotency-Key` as docs/api.md tells integrators to:
 * at once after a gateway error, and after `Retry-After` while the key is in use (its first
 * request is still running, or died with its instance and is released after 30 s). The session is
 * acknowledged only by a 200.
 */
async function create(
  base: string,
  key: string,
  flow: unknown[],
  tally: LoadTally,
): Promise<{ id: string; secret: string }> {
  const idempotencyKey = randomUUID();
  const giveUpAt = Date.now() + CREATE_GIVE_UP_MS;
  for (;;) {
    const r = await call(
      base,
      'POST',
      '/sessions',
      { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey },
      { flow },
    );
    if (r.status === 200) {
      const s = r.body as { session: { id: string }; clientSecret: { secret: string } };
      tally.acknowledged.push(s.session.id);
      return { id: s.session.id, secret: s.clientSecret.secret };
    }
    const inUse = r.status === 429 && errorCode(r.body) === 'idempotency_key_in_use';
    if (r.status !== 502 && r.status !== 503 && !inUse) {
      throw new Error(`create answered ${r.status}: ${JSON.stringify(r.body)}`);
    }
    if (Date.now() > giveUpAt) throw new Error(`create: still ${r.status} after 60 s`);
    tally.createRetries++;
    await new Promise((ok) => setTimeout(ok, inUse ? 1000 : 50));
  }
}

function errorCode(body: unknown): string | undefined {
  return (body as { error?: { code?: string } } | null)?.error?.code;
}

/** One user through the liveness step; false when a step was cut off and the user gave up. */
async function livenessUser(
  base: string,
  key: string,
  frame: string,
  tally: LoadTally,
): Promise<boolean> {
  const s = await create(base, key, LOAD_LIVENESS_FLOW, tally);
  const ex = await call(base, 'POST', '/client/exchange', {}, { clientSecret: s.secret });
  if (ex.status !== 200) return false;
  const auth = { authorization: `Bearer ${(ex.body as { token: string }).token}` };
  const start = await call(base, 'POST', '/client/nodes/live/liveness/start', auth, {});
  if (start.status !== 200) return false;
  const attemptId = (start.body as { attemptId: string }).attemptId;
  const frames = [
    { role: 'baseline', t: 0 },
    { role: 'challenge', challengeIndex: 0, t: 400 },
    { role: 'challenge', challengeIndex: 0, t: 800 },
  ];
  for (const f of frames) {
    const r = await call(base, 'POST', `/client/nodes/live/liveness/${attemptId}/frames`, auth, {
      ...f,
      image: frame,
    });
    if (r.status !== 202) return false;
  }
  const fin = await call(base, 'POST', `/client/nodes/live/liveness/${attemptId}/finish`, auth, {
    ended: 'done',
  });
  if (fin.status !== 200 && fin.status !== 202) return false;
  tally.finished.push({ sessionId: s.id, token: auth.authorization.slice(7), attemptId });
  return true;
}

/**
 * Runs `creators` loops of plain creates and `users` loops of liveness users against `base`
 * until `until()` says stop, and tallies what was acknowledged.
 *
 * @example
 * const tally = newTally();
 * await runMixedLoad({ base, key, frame, creators: 4, users: 4, until: () => tally.acknowledged.length > 100, tally });
 */
export async function runMixedLoad(o: {
  base: string;
  key: string;
  /** A base64 JPEG of a face, sent as every frame. */
  frame: string;
  creators: number;
  users: number;
  until: () => boolean;
  tally: LoadTally;
}): Promise<void> {
  const creator = async () => {
    while (!o.until()) await create(o.base, o.key, CREATE_FLOW, o.tally);
  };
  const user = async () => {
    while (!o.until()) {
      if (!(await livenessUser(o.base, o.key, o.frame, o.tally))) o.tally.abandoned++;
    }
  };
  await Promise.all([
    ...Array.from({ length: o.creators }, creator),
    ...Array.from({ length: o.users }, user),
  ]);
}

/** An empty tally. */
export function newTally(): LoadTally {
  return { acknowledged: [], createRetries: 0, finished: [], abandoned: 0 };
}

/**
 * Polls each finished attempt until the server has decided it; returns those still undecided
 * after `deadlineMs`.
 *
 * @example
 * expect(await undecided(base, tally.finished, 60_000)).toEqual([]);
 */
export async function undecided(
  base: string,
  finished: LoadTally['finished'],
  deadlineMs: number,
): Promise<string[]> {
  const end = Date.now() + deadlineMs;
  let open = [...finished];
  while (open.length > 0 && Date.now() < end) {
    const next: typeof open = [];
    for (const f of open) {
      const r = await call(
        base,
        'GET',
        `/client/nodes/live/liveness/${f.attemptId}`,
        { authorization: `Bearer ${f.token}` },
        undefined,
      );
      if (!(r.status === 200 && (r.body as { status: string }).status === 'decided')) next.push(f);
    }
    open = next;
    if (open.length > 0) await new Promise((ok) => setTimeout(ok, 250));
  }
  return open.map((f) => f.attemptId);
}
