/**
 * `enter_email`: the page reports `emailEntered` with the address typed; the server checks it and
 * keeps it as `extractedData.email` (what the code nodes and data_validation read next). Test mode
 * may report the outcome without an address.
 */
import { ApiError } from '../flow/gateway';
import { isEmail } from '../otp/codes';
import type { ServerNode } from './types';

export const enterEmail: ServerNode<'enter_email'> = {
  acceptResult(outcome, report, { testMode }) {
    if (outcome !== 'emailEntered') return { report };
    const raw = report?.['email'];
    const email = typeof raw === 'string' && isEmail(raw.trim()) ? raw.trim() : undefined;
    if (!email && (!testMode || raw !== undefined)) {
      throw new ApiError('validation_error', 'report.email must be a valid email address');
    }
    return email
      ? { report: { ...(report ?? {}), email }, extractedData: { email } }
      : { report: { ...(report ?? {}) } };
  },
};
