/**
 * `POST /client/nodes/:nodeId/result`: an outcome the page reports for the user. The server stays
 * the authority: outside test mode only the outcomes a user decides are taken (the others come
 * from codes, replies and the server's analyses), the kind checks the report (`acceptResult`), and
 * the step goes through the gateway, which the compiled machine checks.
 */
import { USER_OUTCOMES, type FlowPosition } from '../../core/flow';
import { requireCurrent, requireOutcome, type StepGateway } from '../flow/gateway';
import { ApiError } from '../http/errors';
import { serverNode } from '../nodes';
import type { SessionRecord } from '../store/types';

const MAX_REPORT_BYTES = 16 * 1024;

/**
 * Records the page's outcome of the current node and moves the session on.
 *
 * @example
 * await reportResult(ctx, session, 'perm', 'permissionsGranted', undefined); // { position }
 */
export async function reportResult(
  deps: { gateway: StepGateway },
  s: SessionRecord,
  nodeId: string,
  outcome: string,
  report: Record<string, unknown> | undefined,
): Promise<{ position: FlowPosition }> {
  const node = requireCurrent(s, nodeId);
  requireOutcome(s, nodeId, outcome);
  const testMode = s.mode === 'test';
  if (!testMode && !(USER_OUTCOMES[node.type] ?? []).includes(outcome)) {
    throw new ApiError(
      'validation_error',
      `'${outcome}' of a ${node.type} node is decided by the server, not reported by the page`,
      { code: 'outcome_not_allowed' },
    );
  }
  if (report && Buffer.byteLength(JSON.stringify(report)) > MAX_REPORT_BYTES) {
    throw new ApiError('validation_error', `report is larger than ${MAX_REPORT_BYTES} bytes`);
  }
  const accepted = serverNode(node.type).acceptResult?.(outcome, report, { testMode }) ?? {
    report,
  };
  const saved = await deps.gateway.move(
    s.id,
    nodeId,
    (cur) => {
      const data = accepted.extractedData;
      const session = data
        ? {
            ...cur,
            report: {
              ...cur.report,
              extractedData: { ...(cur.report.extractedData ?? {}), ...data },
            },
          }
        : cur;
      return { session, outcome, ...(accepted.report ? { report: accepted.report } : {}) };
    },
    { what: 'a result' },
  );
  return { position: saved.position };
}
