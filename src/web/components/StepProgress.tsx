import { useTranslation } from 'react-i18next';
import type { FlowNode, Position } from '../api/types';
import { flowProgress } from '../../core/flow/progress';

/**
 * "Step k of n" above the current step, counted over the flow's screens (`flowProgress`); n is the
 * longest route left, so it follows the server as the session moves. Nothing when no step is left.
 *
 * @example
 * <StepProgress flow={session.flow} position={ctx.position} />
 */
export function StepProgress({
  flow,
  position,
}: {
  flow: readonly FlowNode[];
  position: Position;
}) {
  const { t } = useTranslation();
  const progress = flowProgress(flow, position);
  if (!progress) return null;
  return (
    <p className="step-progress" data-testid="step-progress">
      <span>{t('app.progress', { ...progress })}</span>
      <span className="step-progress-bar" aria-hidden="true">
        <span style={{ width: `${(100 * progress.step) / progress.total}%` }} />
      </span>
    </p>
  );
}
