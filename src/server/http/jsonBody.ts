import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { API_LIMITS } from '../../core/api';
import { knownFlowAt } from '../knownFlows';
import { invalid } from './errors';
import { jsonTooDeep } from './jsonDepth';

type Done = (err: Error | null, body?: unknown) => void;
type JsonParser = (request: FastifyRequest, body: string, done: Done) => void;

const FLOW_KEY = '"flow":';
/** How many `"flow":` a body is searched at: a real one has one, or two (legacy and nested). */
const FLOW_KEYS_SEARCHED = 4;

/**
 * The refusal of a body that nests deeper than `API_LIMITS.maxJsonDepth`, naming its top-level
 * field ("Invalid request parameters: report: nested more than 32 levels deep; …"); null for any
 * other body.
 */
function tooDeepError(body: string): Error | null {
  const max = API_LIMITS.maxJsonDepth;
  const deep = jsonTooDeep(body, max);
  if (!deep) return null;
  return invalid([
    {
      path: deep.key ?? '(body)',
      message:
        `nested more than ${max} levels deep; ` +
        `a request body may nest arrays and objects ${max} levels at most`,
    },
  ]);
}

/**
 * Fastify's JSON body parser (`parse`, with its poisoning checks and its errors), made to refuse
 * a body nested deeper than `API_LIMITS.maxJsonDepth` before anything recurses over it, and to
 * recognise a flow it has seen before. Integrators send the same few flows with every session,
 * and the flow is most of a `POST /sessions` body: where a known flow's exact text follows
 * `"flow":`, the rest of the body is parsed with a placeholder in its place, and the shared,
 * frozen value of that flow (whose text, validity and hash are known) is put back. A placeholder
 * found anywhere but at the body's own `flow` (say, a flow inside `metadata`) means the guess
 * was wrong, and the whole text is parsed as it is.
 *
 * @example
 * app.addContentTypeParser('application/json', { parseAs: 'string' },
 *   jsonBodyParser(app.getDefaultJsonParser('error', 'error')));
 */
export function jsonBodyParser(parse: JsonParser): JsonParser {
  // Unguessable, so that no body can carry it itself.
  const placeholder = `\u0000flow ${randomBytes(16).toString('hex')}`;
  const placeholderJson = JSON.stringify(placeholder);
  const parseShallow: JsonParser = (request, body, done) => {
    const deep = tooDeepError(body);
    if (deep) return done(deep);
    parse(request, body, done);
  };
  return function parseJsonBody(request, body, done) {
    let key = body.indexOf(FLOW_KEY);
    for (let n = 0; key !== -1 && n < FLOW_KEYS_SEARCHED; n++) {
      const at = key + FLOW_KEY.length;
      const known = knownFlowAt(body, at);
      if (known) {
        const rest = body.slice(0, at) + placeholderJson + body.slice(at + known.text.length);
        // Only the rest is scanned: a known flow is shallow enough to sit at the body's `flow`
        // (rememberFlow), and a string in its place makes nothing deeper, so a rest too
        // deep is a body too deep.
        const deep = tooDeepError(rest);
        if (deep) return done(deep);
        parse(request, rest, (err, parsed) => {
          const obj = parsed as { flow?: unknown } | null;
          if (!err && obj !== null && typeof obj === 'object' && obj.flow === placeholder) {
            obj.flow = known.value;
            return done(null, obj);
          }
          // A wrong guess, or an error: the whole text decides, and its error is the one told.
          parseShallow(request, body, done);
        });
        return;
      }
      key = body.indexOf(FLOW_KEY, at);
    }
    parseShallow(request, body, done);
  };
}
