import { describe, expect, it } from 'vitest';
import type { Session } from 'open-idv/sdk';
import { html } from './html';
import { embedPage, resultPage } from './pages';

describe('the example pages', () => {
  it('escapes every value put into the HTML, arrays included, unless it is html', () => {
    const name = '<img src=x onerror=alert(1)>"\'&';
    expect(html`<p title="${name}">${[name, html`<b>ok</b>`]}</p>`.value).toBe(
      '<p title="&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;">' +
        '&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;<b>ok</b></p>',
    );
  });

  it('keeps the iframe page script closed whatever the addresses hold', () => {
    const page = embedPage({
      frameUrl: 'http://127.0.0.1:3000/verify?client_secret=a"b',
      idvOrigin: 'http://127.0.0.1:3000',
      resultUrl: '/result/</script><script>alert(1)//',
    }).value;
    expect(page.match(/<\/script>/g)).toHaveLength(1);
    expect(page).toContain('src="http://127.0.0.1:3000/verify?client_secret=a&quot;b"');
  });

  it('waits (reloading) until a webhook says the session ended, then gives the verdict', () => {
    const row = { ref: 'r1', sessionId: 'sess_1' };
    const waiting = resultPage(row, null).value;
    expect(waiting).toContain('<h1>Waiting for the result…</h1>');
    expect(waiting).toContain('http-equiv="refresh"');

    const session = { id: 'sess_1', status: 'complete', report: { nodeReports: [] } };
    const told = { eventId: 'evt_1', status: 'complete', isVerified: true, receivedAt: 1 };
    const done = resultPage({ ...row, fromWebhook: told }, session as unknown as Session).value;
    expect(done).toContain('<h1>Verified: welcome in</h1>');
    expect(done).not.toContain('http-equiv="refresh"');

    const failed = resultPage({ ...row, fromWebhook: { ...told, isVerified: false } }, null).value;
    expect(failed).toContain('<h1>Not verified</h1>');
    // Still in progress by the webhook's word: keep waiting, whatever the status.
    const busy = resultPage({ ...row, fromWebhook: { ...told, status: 'inProgress' } }, null);
    expect(busy.value).toContain('http-equiv="refresh"');
  });
});
