import { useTranslation } from 'react-i18next';
import type { FlowNode, Position } from '../api/types';
import { flowProgress } from '../../core/flow/progress';
import { StepHeading } from '../components/StepHeading';

/**
 * What the computer shows once a phone has the session: where the phone is. The page machine
 * follows the session (`watching`) and shows the end screen when the phone finishes.
 */
export default function PhoneWatch({
  flow,
  position,
}: {
  flow: readonly FlowNode[];
  position: Position | null;
}) {
  const { t } = useTranslation();
  // The phone's step, counted as this page counts its own ("Step k of n").
  const progress = position && flowProgress(flow, position);
  return (
    <section className="card handoff" aria-labelledby="phone-title" data-testid="phone-watch">
      <StepHeading id="phone-title">{t('handoff.onPhoneHeading')}</StepHeading>
      <p>{t('handoff.onPhoneBody')}</p>
      {progress && (
        <p role="status" className="notice" data-testid="phone-step">
          {t('handoff.phoneAt', { ...progress })}
        </p>
      )}
    </section>
  );
}
