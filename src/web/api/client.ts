import { ClientApiError, errorFromResponse } from './errors';
import type { TokenStore } from './token';
import { secretTag } from './token';
import type { ConsentRecord } from '../../core/api';
import type {
  DocumentAnswer,
  DocumentUploadBody,
  ExchangeAnswer,
  HandoffOffer,
  HandoffStatus,
  LivenessAttemptAnswer,
  LivenessFinishBody,
  LivenessFrameBody,
  LivenessStartAnswer,
  OtpSent,
  OtpState,
  OtpVerifyAnswer,
  Position,
  SessionAnswer,
} from './types';

/** What a caller may add to one call: a signal that abandons it (a timeout, a replaced attempt). */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Every call the hosted page makes, as in docs/client-api.md. */
export interface ClientApi {
  /** Spends the client secret; keeps the client token for reloads. */
  exchange(clientSecret: string): Promise<ExchangeAnswer>;
  /** Reads the session again with the kept token (after a reload). */
  session(): Promise<SessionAnswer>;
  setLang(lang: string): Promise<{ lang: string }>;
  prompt(nodeId: string): Promise<{ text: string }>;
  /** A conversation reply; `text` undefined for a node that needs no reply. */
  /**
   * `outcome` is null when no condition matched: the node waits for another answer; `answer`
   * and `again` then carry the guide's answer to a question and the prompt asked again.
   */
  reply(
    nodeId: string,
    text?: string,
  ): Promise<{ outcome: string | null; position: Position; answer?: string; again?: string }>;
  result(
    nodeId: string,
    outcome: string,
    report?: Record<string, unknown>,
  ): Promise<{ position: Position }>;
  otpSend(nodeId: string, destination?: string): Promise<OtpSent | { position: Position }>;
  otpState(nodeId: string): Promise<OtpState>;
  otpVerify(nodeId: string, code: string): Promise<OtpVerifyAnswer>;
  exit(): Promise<{ position: Position }>;
  /** The consent to capture; declining ends the session (`position` says so). */
  consent(
    choice: ConsentRecord['choice'],
    textVersion: string,
  ): Promise<{ consent: ConsentRecord; position: Position }>;
  /** Opens a liveness attempt: the server's challenges; a new one replaces an unfinished one. */
  livenessStart(nodeId: string): Promise<LivenessStartAnswer>;
  /** Uploads one frame of the attempt (202); `received` counts the frames it holds. */
  livenessFrame(
    nodeId: string,
    attemptId: string,
    frame: LivenessFrameBody,
    options?: CallOptions,
  ): Promise<{ received: number }>;
  /** Ends the capture: `analysing`, or `decided` at once for `cameraUnavailable`. */
  livenessFinish(
    nodeId: string,
    attemptId: string,
    body: LivenessFinishBody,
    options?: CallOptions,
  ): Promise<LivenessAttemptAnswer>;
  /** Where the attempt is; `position` once the server has decided. */
  livenessStatus(
    nodeId: string,
    attemptId: string,
    options?: CallOptions,
  ): Promise<LivenessAttemptAnswer>;
  /**
   * Has the server decide a node that needs no input from the user (face_compare, recognition):
   * it compares at once and answers with the new position.
   */
  run(nodeId: string): Promise<{ position: Position }>;
  /**
   * One photo of the document (docs/documents.md): `read` or `timeout` carry the new position;
   * `retry` says why the photo was not enough. The server reads for 0.5–1.5 s: one at a time.
   */
  documentUpload(nodeId: string, body: DocumentUploadBody): Promise<DocumentAnswer>;
  /** The user gave up on the document: the node ends `userCancelled`. */
  documentCancel(nodeId: string): Promise<{ position: Position }>;
  /** The node's time is up: `scanTimeout` (refused with `scan_not_timed_out` when early). */
  documentTimeout(nodeId: string): Promise<{ position: Position }>;
  /** Uploads the session's recording (raw body, `video/webm` or `video/mp4`). */
  video(body: Blob, type: VideoUploadType): Promise<unknown>;
  /** One frame sampled from the camera while the session is recorded. */
  videoFrame(frame: VideoFrameBody): Promise<unknown>;
  /** Continue on a phone: a new single-use link (docs/client-api.md). */
  handoffOffer(): Promise<HandoffOffer>;
  /** The link offered and where the session stands (claimed: the phone has it). */
  handoffStatus(): Promise<HandoffStatus>;
  /** The phone spends a link's code; keeps the phone's own client token for reloads. */
  handoffClaim(code: string): Promise<ExchangeAnswer>;
  /** True when a token is kept for this tab. */
  hasToken(): boolean;
  /** The kept token came from this secret (a reload before the address bar was cleaned). */
  tokenCameFrom(clientSecret: string): boolean;
}

/** The media types `POST /client/video` takes. */
export type VideoUploadType = 'video/webm' | 'video/mp4';

/** A frame sampled during the recording: ms since the recording began and a base64 JPEG. */
export interface VideoFrameBody {
  t: number;
  image: string;
}

export interface ClientApiOptions {
  /** Origin (and path prefix) of the service; '' for the page's own origin. */
  baseUrl?: string;
  tokens: TokenStore;
  fetch?: typeof fetch;
}

/** A request that got no (whole) answer: a lost connection, or abandoned by its signal. */
function networkError(cause: unknown, signal: AbortSignal | undefined): ClientApiError {
  const message = signal?.aborted
    ? 'The request was abandoned (no answer in time)'
    : String((cause as Error)?.message ?? cause);
  return new ClientApiError(0, 'network_error', message);
}

/**
 * The typed client of the `/client/*` routes. Errors come back as `ClientApiError` carrying the
 * spec's `type` and `code`; a network failure is type `network_error`.
 *
 * @example
 * const api = createClientApi({ tokens: storageTokenStore(sessionStorage) });
 * const { session, position } = await api.exchange('cs_…');
 */
export function createClientApi(options: ClientApiOptions): ClientApi {
  const base = (options.baseUrl ?? '').replace(/\/$/, '');
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const { tokens } = options;

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    auth = true,
    raw?: { body: Blob; type: string },
    options: CallOptions = {},
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (raw) headers['content-type'] = raw.type;
    else if (body !== undefined) headers['content-type'] = 'application/json';
    const kept = tokens.read();
    if (auth) {
      if (!kept) throw new ClientApiError(401, 'authentication_error', 'No client token');
      headers.authorization = `Bearer ${kept.token}`;
    }
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers,
        body: raw ? raw.body : body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
        referrerPolicy: 'no-referrer',
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (cause) {
      throw networkError(cause, options.signal);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (cause) {
      // The answer broke off (the connection dropped, or the caller's signal fired mid-body).
      throw networkError(cause, options.signal);
    }
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    if (!res.ok) throw errorFromResponse(res.status, parsed);
    // Nothing to read back (a route that only takes something in).
    if (res.status === 204) return {} as T;
    if (parsed === null || typeof parsed !== 'object') {
      throw new ClientApiError(
        res.status,
        'api_error',
        'The service answered something unreadable',
      );
    }
    return parsed as T;
  }

  const node = (id: string) => `/client/nodes/${encodeURIComponent(id)}`;
  const attempt = (nodeId: string, attemptId: string) =>
    `${node(nodeId)}/liveness/${encodeURIComponent(attemptId)}`;

  return {
    async exchange(clientSecret) {
      const answer = await call<ExchangeAnswer>(
        'POST',
        '/client/exchange',
        { clientSecret },
        false,
      );
      tokens.write({ token: answer.token, secretTag: secretTag(clientSecret) });
      return answer;
    },
    session: () => call('GET', '/client/session'),
    setLang: (lang) => call('POST', '/client/lang', { lang }),
    prompt: (nodeId) => call('GET', `${node(nodeId)}/prompt`),
    reply: (nodeId, text) =>
      call('POST', `${node(nodeId)}/reply`, text === undefined ? {} : { text }),
    result: (nodeId, outcome, report) =>
      call('POST', `${node(nodeId)}/result`, report ? { outcome, report } : { outcome }),
    otpSend: (nodeId, destination) =>
      call('POST', `${node(nodeId)}/otp/send`, destination ? { destination } : {}),
    otpState: (nodeId) => call('GET', `${node(nodeId)}/otp`),
    otpVerify: (nodeId, code) => call('POST', `${node(nodeId)}/otp/verify`, { code }),
    exit: () => call('POST', '/client/exit', {}),
    consent: (choice, textVersion) => call('POST', '/client/consent', { choice, textVersion }),
    livenessStart: (nodeId) => call('POST', `${node(nodeId)}/liveness/start`, {}),
    livenessFrame: (nodeId, attemptId, frame, o) =>
      call('POST', `${attempt(nodeId, attemptId)}/frames`, frame, true, undefined, o),
    livenessFinish: (nodeId, attemptId, body, o) =>
      call('POST', `${attempt(nodeId, attemptId)}/finish`, body, true, undefined, o),
    livenessStatus: (nodeId, attemptId, o) =>
      call('GET', attempt(nodeId, attemptId), undefined, true, undefined, o),
    run: (nodeId) => call('POST', `${node(nodeId)}/run`, {}),
    documentUpload: (nodeId, body) => call('POST', `${node(nodeId)}/document`, body),
    documentCancel: (nodeId) => call('POST', `${node(nodeId)}/document/cancel`, {}),
    documentTimeout: (nodeId) => call('POST', `${node(nodeId)}/document/timeout`, {}),
    video: (body, type) => call('POST', '/client/video', undefined, true, { body, type }),
    videoFrame: (frame) => call('POST', '/client/video/frames', frame),
    handoffOffer: () => call('POST', '/client/handoff', {}),
    handoffStatus: () => call('GET', '/client/handoff'),
    async handoffClaim(code) {
      const answer = await call<ExchangeAnswer>('POST', '/client/handoff/claim', { code }, false);
      tokens.write({ token: answer.token, secretTag: null });
      return answer;
    },
    hasToken: () => tokens.read() !== null,
    tokenCameFrom: (clientSecret) => tokens.read()?.secretTag === secretTag(clientSecret),
  };
}
