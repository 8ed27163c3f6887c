import { useTranslation } from 'react-i18next';
import type { ClientApi } from '../api/client';
import type { RouteTaken } from '../../core/flow';
import type { FlowNode } from '../api/types';
import type { PageEvent } from '../machine/pageMachine';
import { CallProblem } from '../components/Notice';
import { useServerCall } from '../screens/useServerCall';
import { panelOutcomes } from './outcomeList';

const KNOWN_OUTCOMES = new Set([
  'permissionsGranted',
  'permissionsDenied',
  'emailEntered',
  'canceled',
  'cancelled',
  'userCancelled',
  'verified',
  'delivery_failed',
  'failed_unverified',
  'error',
  'livenessDetected',
  'deepfakeDetected',
  'noFace',
  'inconclusive',
  'scanSuccess',
  'scanTimeout',
  'passed',
  'notPassed',
  'match',
  'noMatch',
  'imageUnavailable',
  'recognized',
  'newUser',
] as const);
type KnownOutcome = typeof KNOWN_OUTCOMES extends Set<infer K> ? K : never;

/**
 * The tester's panel: every outcome of the current node, each sent to the server as the node's
 * result (test sessions accept any outcome the node can have), with where the flow machine
 * routes it (`routes`). Conversation outcomes show their condition.
 */
export default function TestPanel({
  node,
  routes,
  api,
  send,
}: {
  node: FlowNode;
  routes: readonly RouteTaken[];
  api: ClientApi;
  send(event: PageEvent): void;
}) {
  const { t } = useTranslation();
  const call = useServerCall(send, api);
  const outcomes = panelOutcomes(node, routes);
  const choose = (outcome: string) =>
    void call.run(async () => {
      const { position } = await api.result(node.id, outcome);
      send({ type: 'POSITION', position });
    });
  return (
    <aside className="test-panel" aria-labelledby="test-panel-title">
      <h2 id="test-panel-title" className="test-panel-title">
        {t('testMode.panelTitle')}
      </h2>
      <p className="hint">
        {t(`nodes.${node.type}`)} · <code>{node.id}</code>
      </p>
      <p className="hint">{t('testMode.panelHint')}</p>
      <ul className="outcome-list">
        {outcomes.map((o) => (
          <li key={o.outcome}>
            <button
              type="button"
              className="button button-secondary outcome-button"
              data-outcome={o.outcome}
              onClick={() => choose(o.outcome)}
              disabled={call.busy}
            >
              <span>
                {KNOWN_OUTCOMES.has(o.outcome as KnownOutcome)
                  ? t(`outcomes.${o.outcome as KnownOutcome}`)
                  : o.outcome}
              </span>
              {o.condition !== undefined && (
                <span className="outcome-condition">
                  {o.condition.trim() ? o.condition : t('outcomes.conditionAlways')}
                </span>
              )}
              <code className="outcome-key">
                {o.outcome} → {o.target ?? '∅'}
              </code>
            </button>
          </li>
        ))}
      </ul>
      <CallProblem problem={call.problem} onRetry={call.retry} />
    </aside>
  );
}
