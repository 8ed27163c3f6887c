import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { fastifyWebhookPlugin, type IdvClient } from 'open-idv/sdk';
import { VERIFY_FLOW } from './flow';
import { embedPage, errorPage, homePage, resultPage } from './pages';
import { createVerifications } from './verifications';

export interface ExampleAppOptions {
  /** The typed client, made with a test (`sk_test_`) or live key. */
  idv: IdvClient;
  /** The verification service's address: the origin the embedded page's messages come from. */
  idvUrl: string;
  /** Where this site is reached: the sessions' `redirectUrl` and `embedOrigins` point here. */
  publicUrl: string;
  /** The signing secret `idv webhooks add` printed for this site's `/webhooks`. */
  webhookSecret: string;
}

/**
 * The example integrator's site: a gate that creates a verification session with the typed
 * client, sends the visitor to the hosted page (redirect) or frames it (embed), learns the result
 * from the service's signed webhooks and shows it.
 *
 * @example
 * const app = buildExampleApp({ idv, idvUrl, publicUrl, webhookSecret });
 * await app.listen({ port: 3001, host: '127.0.0.1' });
 */
export function buildExampleApp(opts: ExampleAppOptions): FastifyInstance {
  const { idv, publicUrl } = opts;
  const verifications = createVerifications();
  const app = Fastify();

  // The gate's buttons post a form; Fastify parses only JSON by itself.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get('/', async (_req, reply) => reply.type('text/html').send(homePage().value));

  app.post<{ Body: { mode?: string } | undefined }>('/verify', async (req, reply) => {
    // In a real site this is the signed-in user; here each attempt gets its own reference.
    const ref = randomUUID();
    const resultUrl = `${publicUrl}/result/${ref}`;
    const { session, clientSecret } = await idv.sessions.create({
      flow: VERIFY_FLOW,
      clientReferenceId: ref,
      redirectUrl: resultUrl,
      embedOrigins: [new URL(publicUrl).origin],
    });
    verifications.start(ref, session.id);
    if (req.body?.mode !== 'embed') return reply.redirect(clientSecret.url, 303);
    const page = embedPage({
      frameUrl: clientSecret.url,
      idvOrigin: new URL(opts.idvUrl).origin,
      resultUrl,
    });
    return reply.type('text/html').send(page.value);
  });

  // The webhook route gets the raw bytes (its plugin's own body parser) to check the signature.
  // An event says only that a session changed: what it changed to is read from the API.
  app.register(
    fastifyWebhookPlugin({
      path: '/webhooks',
      secret: opts.webhookSecret,
      async onEvent(event) {
        if (event.type !== 'session.status' || !verifications.bySession(event.sessionId)) return;
        const { session } = await idv.sessions.retrieve(event.sessionId);
        verifications.record(event.sessionId, {
          eventId: event.id,
          status: session.status,
          isVerified: session.report.isVerified,
          receivedAt: Date.now(),
        });
      },
    }),
  );

  app.get<{ Params: { ref: string } }>('/result/:ref', async (req, reply) => {
    const row = verifications.byRef(req.params.ref);
    if (!row)
      return reply.code(404).type('text/html').send(errorPage('No such verification').value);
    const session = await idv.sessions.retrieve(row.sessionId).then(
      (r) => r.session,
      () => null,
    );
    return reply.type('text/html').send(resultPage(row, session).value);
  });

  app.setErrorHandler(async (err, _req, reply) => {
    console.error(err);
    return reply
      .code(502)
      .type('text/html')
      .send(errorPage('The verification service could not be reached').value);
  });

  return app;
}
