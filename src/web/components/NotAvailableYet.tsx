import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../screens/types';
import { ExitButton } from './ExitButton';
import { StepHeading } from './StepHeading';

/**
 * The place of a camera node until its own issue brings the capture: it says so plainly and
 * lets the user leave. In test mode the outcome panel below decides the node instead.
 */
export function NotAvailableYet({ node, send }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="pending-title" data-node-type={node.type}>
      <p className="eyebrow">{t(`nodes.${node.type}`)}</p>
      <StepHeading id="pending-title">{t('camera.notAvailableTitle')}</StepHeading>
      <p>{t('camera.notAvailableBody')}</p>
      <div className="actions">
        <ExitButton onExit={() => send({ type: 'EXIT' })} />
      </div>
    </section>
  );
}
