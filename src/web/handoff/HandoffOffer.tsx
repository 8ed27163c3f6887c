import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientApi } from '../api/client';
import type { HandoffOffer as Offer } from '../api/types';
import { Busy } from '../components/Notice';
import { StepHeading } from '../components/StepHeading';
import type { PageEvent } from '../machine/pageMachine';

/** How often the computer asks whether the phone has opened the link. */
const POLL_MS = 1500;

/**
 * Continue on a phone: a QR code and the short link (single use, 10 minutes). When the phone
 * opens it, the page machine moves to following the session (`ON_PHONE`). An expired link can be
 * replaced; the user may go on here instead (without a camera, when there is none).
 * Its own chunk: the QR library is fetched only when a link is offered.
 */
export default function HandoffOffer({
  api,
  send,
  noCamera,
}: {
  api: ClientApi;
  send: (event: PageEvent) => void;
  noCamera: boolean;
}) {
  const { t } = useTranslation();
  const [offer, setOffer] = useState<(Offer & { qr: string }) | null>(null);
  const [state, setState] = useState<'loading' | 'offered' | 'expired' | 'failed'>('loading');

  // Each round makes a new link: the old one dies on the server as this one is made.
  const [round, setRound] = useState(0);
  const ask = () => {
    setState('loading');
    setRound((r) => r + 1);
  };
  useEffect(() => {
    let live = true;
    Promise.all([api.handoffOffer(), import('qrcode')])
      .then(async ([made, QRCode]) => {
        const qr = await QRCode.toDataURL(made.url, { margin: 1, width: 232 });
        if (!live) return;
        setOffer({ ...made, qr });
        setState('offered');
      })
      .catch(() => {
        if (live) setState('failed');
      });
    return () => {
      live = false;
    };
  }, [api, round]);

  useEffect(() => {
    if (state !== 'offered') return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const turn = async () => {
      try {
        const status = await api.handoffStatus();
        if (stopped) return;
        if (status.state === 'claimed')
          return send({ type: 'ON_PHONE', position: status.position });
        if (status.state === 'expired') return setState('expired');
      } catch {
        // Asked again at the next turn.
      }
      if (!stopped) timer = setTimeout(() => void turn(), POLL_MS);
    };
    timer = setTimeout(() => void turn(), POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [state, api, send]);

  return (
    <section className="card handoff" aria-labelledby="handoff-title" data-testid="handoff-offer">
      <StepHeading id="handoff-title">{t('handoff.heading')}</StepHeading>
      {noCamera && <p className="notice">{t('handoff.noCamera')}</p>}
      <p>{t('handoff.intro')}</p>
      {state === 'loading' && <Busy />}
      {state === 'offered' && offer && (
        <div className="handoff-link">
          <img
            className="handoff-qr"
            src={offer.qr}
            alt={t('handoff.qrAlt')}
            width={232}
            height={232}
          />
          <p className="muted">{t('handoff.linkLabel')}</p>
          <p>
            <a href={offer.url} data-testid="handoff-url" target="_blank" rel="noreferrer noopener">
              {offer.url}
            </a>
          </p>
          <p className="muted" role="status">
            {t('handoff.waiting')}
          </p>
        </div>
      )}
      {(state === 'expired' || state === 'failed') && (
        <div className="notice notice-error" role="alert">
          <p>{state === 'expired' ? t('handoff.expired') : t('app.unexpectedError')}</p>
          <button type="button" className="button" onClick={ask}>
            {t('handoff.newLink')}
          </button>
        </div>
      )}
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => send({ type: 'DECLINE_PHONE' })}
        >
          {noCamera ? t('handoff.withoutCamera') : t('handoff.stayHere')}
        </button>
      </div>
    </section>
  );
}
