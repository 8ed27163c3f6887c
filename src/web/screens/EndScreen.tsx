import { useTranslation } from 'react-i18next';
import type { EndReason } from '../../core/flow/end-reason';
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

/** The received mark: an inbox tray, neutral (it says "received", never "passed"). */
function ReceivedIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="30"
      height="30"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M4 13h4l2 3h4l2-3h4" />
      <path d="M5.5 5h13L21 13v6H3v-6z" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * The end of the session. A finished one (an `end` node was reached) says only that the
 * verification was received: never the verdict, which is for the integrator. An incomplete one
 * says why, in the user's terms (`endReason`), and what to do next; no success mark. A user who
 * came by redirect gets a way back to `redirectUrl` when it is set; in a frame the parent page
 * takes over (it is told by `postMessage`).
 */
export default function EndScreen({
  session,
  status,
  endReason,
}: {
  session: PublicSession;
  status: 'complete' | 'incomplete';
  endReason?: EndReason | undefined;
}) {
  const { t } = useTranslation();
  const redirect = session.settings.redirectUrl;
  const site = redirect ? siteName(redirect) : null;
  const complete = status === 'complete';
  const reason: EndReason = endReason ?? 'stepNotCompleted';
  return (
    <section
      className="card end"
      aria-labelledby="end-title"
      data-status={status}
      data-end-reason={complete ? undefined : reason}
    >
      <div className={`end-icon ${complete ? 'received' : 'stopped'}`} aria-hidden="true">
        {complete ? <ReceivedIcon /> : '!'}
      </div>
      <StepHeading id="end-title">
        {complete ? t('ending.receivedTitle') : t(`ending.reasons.${reason}.title`)}
      </StepHeading>
      {complete ? (
        <p>{t('ending.receivedBody')}</p>
      ) : (
        <>
          <p>{t(`ending.reasons.${reason}.body`)}</p>
          <p className="end-next">{t(`ending.reasons.${reason}.next`)}</p>
        </>
      )}
      {redirect && site && !isEmbedded() ? (
        <p>
          <a className="button" href={redirect} rel="noreferrer">
            {t('ending.backTo', { site })}
          </a>
        </p>
      ) : (
        <p className="muted">{t('ending.close')}</p>
      )}
    </section>
  );
}
