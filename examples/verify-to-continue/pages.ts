import type { Session } from 'open-idv/sdk';
import { SafeHtml, html, layout } from './html';
import type { Verification } from './verifications';

/**
 * The gate: the visitor chooses how to verify. Buttons in forms, not links, because choosing
 * creates a session (a link could be followed by a prefetch).
 *
 * @example
 * homePage().value.includes('action="/verify"'); // true
 */
export function homePage(): SafeHtml {
  return layout(
    'Verify to continue',
    html`<h1>Verify to continue</h1>
      <p>
        The members' area is for verified people. It takes a minute: your email address, then the
        code we send to it.
      </p>
      <form method="post" action="/verify">
        <button name="mode" value="redirect">Verify on the verification page</button>
        <button name="mode" value="embed">Verify here, in this page</button>
      </form>`,
  );
}

/**
 * The hosted page inside an iframe. The page tells its parent when it ends (`postMessage`, from
 * the service's origin only); the result itself is read on the server, never from the message.
 *
 * @example
 * embedPage({ frameUrl: 'http://127.0.0.1:3000/verify?client_secret=cs_…', idvOrigin: 'http://127.0.0.1:3000', resultUrl: '/result/r1' });
 */
export function embedPage(opts: {
  frameUrl: string;
  idvOrigin: string;
  resultUrl: string;
}): SafeHtml {
  // JSON with "<" escaped is a safe JavaScript literal inside <script>.
  const js = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c');
  const script = new SafeHtml(`addEventListener('message', (e) => {
  if (e.origin !== ${js(opts.idvOrigin)} || e.data?.source !== 'idv-hosted-page') return;
  if (e.data.type === 'complete' || e.data.type === 'incomplete') location.assign(${js(opts.resultUrl)});
});`);
  return layout(
    'Verify to continue',
    html`<h1>Verify to continue</h1>
      <iframe
        id="idv"
        title="Identity verification"
        src="${opts.frameUrl}"
        allow="camera; microphone"
      ></iframe>
      <script>
        ${script};
      </script>`,
  );
}

/**
 * The result: what the webhook told us (the verdict the site acts on) and the session as the API
 * shows it now. Until a webhook has said the session ended, the page reloads itself every second.
 *
 * @example
 * resultPage({ ref: 'r1', sessionId: 'sess_1' }, null); // "Waiting for the result…"
 */
export function resultPage(row: Verification, session: Session | null): SafeHtml {
  const told = row.fromWebhook;
  const ended = told?.status === 'complete' || told?.status === 'incomplete';
  const verdict = !ended
    ? html`<h1>Waiting for the result…</h1>
        <p>The verification service tells us by webhook when your verification ends.</p>`
    : told.isVerified
      ? html`<h1>Verified: welcome in</h1>
          <p>Thank you. The members' area is open to you.</p>`
      : html`<h1>Not verified</h1>
          <p>We could not verify you this time. <a href="/">Try again</a>.</p>`;
  return layout(
    ended ? 'Result' : 'Waiting',
    html`${verdict}
      <section aria-labelledby="webhook">
        <h2 id="webhook">From the webhook</h2>
        ${
          told
            ? html`<dl>
                <dt>Event</dt>
                <dd><code>${told.eventId}</code></dd>
                <dt>Status</dt>
                <dd>${told.status}</dd>
                <dt>Verified</dt>
                <dd>${told.isVerified ? 'yes' : 'no'}</dd>
              </dl>`
            : html`<p>No event yet.</p>`
        }
      </section>
      <section aria-labelledby="api">
        <h2 id="api">Retrieved with the client</h2>
        ${
          session
            ? html`<dl>
                <dt>Session</dt>
                <dd><code>${session.id}</code></dd>
                <dt>Status</dt>
                <dd>${session.status}</dd>
                <dt>Steps</dt>
                <dd>
                  <ul>
                    ${session.report.nodeReports.map((r) => html`<li><code>${r.nodeId}</code>: ${r.outcome}</li>`)}
                  </ul>
                </dd>
              </dl>`
            : html`<p>The session could not be retrieved.</p>`
        }
      </section>`,
    ended ? html`` : html`<meta http-equiv="refresh" content="1" />`,
  );
}

/**
 * A page for what went wrong, with a way back.
 *
 * @example
 * errorPage('No such verification').value.includes('<h1>No such verification</h1>'); // true
 */
export function errorPage(message: string): SafeHtml {
  return layout(
    message,
    html`<h1>${message}</h1>
      <p><a href="/">Back</a></p>`,
  );
}
