import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CallProblem } from '../../components/Notice';
import { StepHeading } from '../../components/StepHeading';
import { looksLikeEmail } from '../../format/mask';
import type { ScreenProps } from '../../screens/types';
import { useNodePrompt } from '../../screens/useNodePrompt';
import { useServerCall } from '../../screens/useServerCall';

/**
 * The enter_email node: the guide says the node's prompt, the user types an address
 * (`emailEntered` with `report.email`) or cancels (`canceled`, the spelling of this node type).
 */
export default function EnterEmailScreen({ node, api, send }: ScreenProps<'enter_email'>) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState(false);
  const call = useServerCall(send, api);
  useNodePrompt(api, node, send);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const value = email.trim();
    if (!looksLikeEmail(value)) {
      setInvalid(true);
      document.getElementById('email')?.focus();
      return;
    }
    setInvalid(false);
    void call.run(async () => {
      const { position } = await api.result(node.id, 'emailEntered', { email: value });
      send({ type: 'EMAIL_ENTERED', email: value });
      send({ type: 'POSITION', position });
    });
  };

  const cancel = () =>
    void call.run(async () => {
      const { position } = await api.result(node.id, 'canceled');
      send({ type: 'POSITION', position });
    });

  return (
    <section className="card" aria-labelledby="email-title">
      <StepHeading id="email-title">{t('email.heading')}</StepHeading>
      <form onSubmit={submit} noValidate>
        <label htmlFor="email" className="label">
          {t('email.label')}
        </label>
        <p id="email-hint" className="hint">
          {t('email.hint')}
        </p>
        <input
          id="email"
          className="input"
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={254}
          value={email}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? 'email-hint email-error' : 'email-hint'}
          onChange={(e) => setEmail(e.target.value)}
        />
        {invalid && (
          <p id="email-error" className="field-error" role="alert">
            {t('email.invalid')}
          </p>
        )}
        <CallProblem
          problem={call.problem}
          onRetry={call.retry}
          message={call.problem === 'refused' ? t('email.invalid') : undefined}
        />
        <div className="actions">
          <button type="submit" className="button" disabled={call.busy}>
            {t('email.submit')}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={cancel}
            disabled={call.busy}
          >
            {t('email.cancel')}
          </button>
        </div>
      </form>
    </section>
  );
}
