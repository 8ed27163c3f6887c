import { useTranslation } from 'react-i18next';
import type { DocumentRetryReason } from '../api/types';
import type { DocumentType } from './guide';

/** The words of a repeated refusal, as a key of `document.offer.reasons`. */
const REASON_KEY = {
  unreadable: 'document.offer.reasons.unreadable',
  checks_failed: 'document.offer.reasons.checksFailed',
  expired: 'document.offer.reasons.expired',
  not_genuine: 'document.offer.reasons.notGenuine',
  // A front kept never repeats into an offer (offerAfter); worded as unreadable all the same.
  front_saved: 'document.offer.reasons.unreadable',
} as const;

/**
 * What the document screen says once the same refusal came back too often (`offerAfter`): the
 * reason in the user's words and the other ways: upload a photo, use another document, try
 * again. A licence without a barcode keeps its own words (which documents are read here).
 *
 * @example
 * <DocumentOffer reason="checks_failed" type="passport" types={['passport', 'id']} … />
 */
export function DocumentOffer(props: {
  reason: DocumentRetryReason;
  type: DocumentType;
  types: readonly DocumentType[];
  onRetry(): void;
  onUpload(): void;
  onChoose(type: DocumentType): void;
}) {
  const { t } = useTranslation();
  const { reason, types } = props;
  const other = types.find((k) => k !== props.type);
  const works = (
    <p>
      {t('document.offer.works', {
        documents: types.map((k) => t(`document.types.${k}`)).join(', '),
      })}
    </p>
  );
  if (reason === 'no_barcode') {
    return (
      <div role="alert" className="notice" data-testid="document-offer" data-reason={reason}>
        <p className="notice-title">{t('document.offer.title')}</p>
        <p>{t('document.offer.body')}</p>
        {works}
        {types.length > 1 ? null : <p>{t('document.offer.none')}</p>}
        <div className="actions">
          <button
            type="button"
            className="button"
            data-testid="document-offer-retry"
            onClick={props.onRetry}
          >
            {t('document.offer.retry')}
          </button>
        </div>
      </div>
    );
  }
  return (
    <div role="alert" className="notice" data-testid="document-offer" data-reason={reason}>
      <p className="notice-title">{t('document.offer.repeatedTitle')}</p>
      <p data-testid="document-offer-reason">{t(REASON_KEY[reason])}</p>
      <p>{t('document.offer.ways')}</p>
      {types.length > 1 ? works : null}
      <div className="actions">
        <button type="button" className="button" onClick={props.onUpload}>
          {t('document.offer.upload')}
        </button>
        <button
          type="button"
          className="button button-secondary"
          // Another type where the node takes several; else another document of the same type.
          onClick={() => (other ? props.onChoose(other) : props.onRetry())}
        >
          {t('document.offer.another')}
        </button>
        <button
          type="button"
          className="button button-quiet"
          data-testid="document-offer-retry"
          onClick={props.onRetry}
        >
          {t('document.offer.tryAgain')}
        </button>
      </div>
    </div>
  );
}
