import { useTranslation } from 'react-i18next';
import type { PublicSession } from '../api/types';
import { StepHeading } from '../components/StepHeading';
import { isEmbedded } from '../embed/postToParent';

/**
 * The site a redirect URL leads back to, for the button's words (the host alone).
 *
 * @example
 * siteName('https://shop.example/after?x=1'); // 'shop.example'
 */
export function siteName(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.host : null;
  } catch {
    return null;
  }
}

/**
 * The end of the session: finished (an `end` node was reached; the guide says the final phrase)
 * or ended early. A user who came by redirect gets a way back to `redirectUrl` when it is set; in
 * a frame the parent page takes over (it is told by `postMessage`).
 */
export default function EndScreen({
  session,
  status,
}: {
  session: PublicSession;
  status: 'complete' | 'incomplete';
}) {
  const { t } = useTranslation();
  const redirect = session.settings.redirectUrl;
  const site = redirect ? siteName(redirect) : null;
  const complete = status === 'complete';
  return (
    <section className="card end" aria-labelledby="end-title" data-status={status}>
      <div className={`end-icon ${complete ? 'ok' : 'stopped'}`} aria-hidden="true">
        {complete ? '✓' : '—'}
      </div>
      <StepHeading id="end-title">
        {complete ? t('end.completeTitle') : t('end.incompleteTitle')}
      </StepHeading>
      <p>{complete ? t('end.completeBody') : t('end.incompleteBody')}</p>
      {redirect && site && !isEmbedded() ? (
        <p>
          <a className="button" href={redirect} rel="noreferrer">
            {t('end.backTo', { site })}
          </a>
        </p>
      ) : (
        <p className="muted">{t('end.close')}</p>
      )}
    </section>
  );
}
