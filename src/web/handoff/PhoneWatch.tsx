import { useTranslation } from 'react-i18next';
import type { Position } from '../api/types';
import { StepHeading } from '../components/StepHeading';

/**
 * The step the phone is on, counted as the page counts steps for its parent: the nodes passed
 * (but the start) and one.
 *
 * @example
 * phoneStep({ nodeId: 'face', nodeType: 'liveness_detection', status: 'active', path: [{ nodeId: 'start', type: 'start', outcome: 'next' }] }); // 1
 */
export function phoneStep(position: Position): number {
  return position.path.filter((p) => p.type !== 'start').length + 1;
}

/**
 * What the computer shows once a phone has the session: where the phone is. The page machine
 * follows the session (`watching`) and shows the end screen when the phone finishes.
 */
export default function PhoneWatch({ position }: { position: Position | null }) {
  const { t } = useTranslation();
  return (
    <section className="card handoff" aria-labelledby="phone-title" data-testid="phone-watch">
      <StepHeading id="phone-title">{t('handoff.onPhoneHeading')}</StepHeading>
      <p>{t('handoff.onPhoneBody')}</p>
      {position && (
        <p role="status" className="notice" data-testid="phone-step">
          {t('handoff.phoneAt', { step: phoneStep(position) })}
        </p>
      )}
    </section>
  );
}
