import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONSENT_TEXT_VERSION } from '../../../core/api/consent-version';
import { denialHelpText } from '../../camera/useCaptureStrings';
import { CallProblem } from '../../components/Notice';
import { consentDue } from '../../consent/consent';
import { ConsentNotice } from '../../consent/ConsentNotice';
import { StepHeading } from '../../components/StepHeading';
import { planPermissionsPage } from '../../controls/rules';
import { parseColor, readableTextOn } from '../../format/color';
import { devicesOfPermissionsNode } from './devices';
import { permissionsTexts } from './texts';
import { onPermissionGranted, requestDevices, type AccessResult } from '../../screens/mediaAccess';
import type { ScreenProps } from '../../screens/types';
import { useNodePrompt } from '../../screens/useNodePrompt';
import { useServerCall } from '../../screens/useServerCall';

/** An integrator's colour as [r, g, b]: hex and rgb() directly, named colours via the browser. */
function resolveColor(value: string): [number, number, number] | null {
  const direct = parseColor(value);
  if (direct) return direct;
  if (typeof CSS === 'undefined' || !CSS.supports('color', value)) return null;
  const probe = document.createElement('span');
  probe.style.color = value;
  document.body.appendChild(probe);
  const computed = getComputedStyle(probe).color;
  probe.remove();
  return parseColor(computed);
}

/**
 * The permissions page: the `permissions` node, and the same page in front of the first node that
 * needs a device in a flow without one. Every `customization.permissionsPage` field applies
 * (texts and their translations, avatar or colour background). A denial explains how to fix it and
 * offers a retry, which also happens by itself when the user allows access in the browser.
 */
export default function PermissionsScreen({
  node,
  session,
  lang,
  api,
  send,
  implicitAsk,
}: ScreenProps) {
  const { t } = useTranslation();
  const devices = implicitAsk ?? devicesOfPermissionsNode(node);
  const micOnly = !!implicitAsk && implicitAsk.microphone && !implicitAsk.camera;
  const [state, setState] = useState<'intro' | 'asking' | AccessResult>('intro');
  const call = useServerCall(send, api);
  // Consent comes before the camera: the disclosure is on this page, going on agrees to it.
  const [consented, setConsented] = useState(session.consent?.choice === 'accepted');
  const askConsent = consentDue(devices, consented);
  useNodePrompt(api, node, send, !implicitAsk);

  // Only the devices asked for are named (a microphone request is not a camera request).
  const texts = permissionsTexts(devices, micOnly);
  const [heading, subheading, deniedBody, notFound, inUse, unsupported] = [
    t(texts.heading),
    t(texts.subheading),
    t(texts.deniedBody),
    t(texts.notFound),
    t(texts.inUse),
    t(texts.unsupported),
  ];
  const denialHelp = denialHelpText(t);
  const plan = planPermissionsPage(session.settings.customization?.permissionsPage, lang, {
    heading,
    subheading,
    buttonText: t('permissions.button'),
  });
  const colors = useMemo(() => {
    if (plan.background.kind !== 'color') return null;
    const rgb = resolveColor(plan.background.color);
    return rgb ? { backgroundColor: `rgb(${rgb.join(' ')})`, color: readableTextOn(rgb) } : null;
  }, [plan.background]);

  const finish = (granted: boolean) => {
    if (implicitAsk) {
      send({ type: 'DEVICES_ASKED', ...implicitAsk });
      return;
    }
    void call.run(async () => {
      const { position } = await api.result(
        node.id,
        granted ? 'permissionsGranted' : 'permissionsDenied',
        { camera: devices.camera, microphone: devices.microphone },
      );
      send({ type: 'POSITION', position });
    });
  };

  const decline = () =>
    void call.run(async () => {
      const { position } = await api.consent('declined', CONSENT_TEXT_VERSION);
      send({ type: 'POSITION', position });
    });

  const ask = async () => {
    if (askConsent) {
      const agreed = { ok: false };
      await call.run(async () => {
        await api.consent('accepted', CONSENT_TEXT_VERSION);
        agreed.ok = true;
      });
      if (!agreed.ok) return;
      setConsented(true);
    }
    setState('asking');
    const result = await requestDevices(devices);
    setState(result);
    if (result === 'granted') finish(true);
  };

  const failed = state !== 'intro' && state !== 'asking' && state !== 'granted';
  // No camera here: the page offers the phone at the camera node, and here already.
  const noCamera = state === 'notFound' && devices.camera;
  useEffect(() => {
    if (noCamera) send({ type: 'NO_CAMERA' });
  }, [noCamera, send]);
  useEffect(() => {
    if (state !== 'blocked') return;
    return onPermissionGranted(devices, () => void ask());
    // The listener is set up once per denial; `ask` and `devices` are stable for that while.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state]);

  return (
    <section
      className={`card permissions ${colors ? 'permissions-color' : 'permissions-avatar'}`}
      style={colors ?? undefined}
      aria-labelledby="permissions-title"
    >
      {!colors && session.settings.avatar && (
        <img className="permissions-avatar-image" src={session.settings.avatar.imageUrl} alt="" />
      )}
      <StepHeading id="permissions-title">{plan.heading}</StepHeading>
      <p>{plan.subheading}</p>
      <p className="muted">{t('permissions.needs')}</p>
      <ul className="device-list">
        {devices.camera && <li>{t('permissions.camera')}</li>}
        {devices.microphone && <li>{t('permissions.microphone')}</li>}
      </ul>

      {state === 'asking' && (
        <p role="status" className="notice">
          {t('permissions.asking')}
        </p>
      )}
      {state === 'granted' && (
        <p role="status" className="notice notice-ok">
          {t('permissions.granted')}
        </p>
      )}
      {failed && (
        <div role="alert" className="notice notice-error">
          {state === 'blocked' && (
            <>
              <p className="notice-title">{t('permissions.deniedTitle')}</p>
              {/* The browser's own steps where they are known, else the general ones. */}
              {denialHelp ? <p data-testid="denial-help">{denialHelp}</p> : <p>{deniedBody}</p>}
            </>
          )}
          {state === 'notFound' && <p>{notFound}</p>}
          {state === 'inUse' && <p>{inUse}</p>}
          {state === 'unsupported' && <p>{unsupported}</p>}
        </div>
      )}
      {askConsent && state === 'intro' && <ConsentNotice session={session} />}
      <CallProblem problem={call.problem} onRetry={call.retry} />

      <div className="actions">
        {(state === 'intro' || state === 'asking') && (
          <button
            type="button"
            className="button"
            onClick={() => void ask()}
            disabled={state === 'asking' || call.busy}
          >
            {plan.buttonText}
          </button>
        )}
        {noCamera && (
          <button
            type="button"
            className="button"
            onClick={() => send({ type: 'OFFER_PHONE' })}
            disabled={call.busy}
          >
            {t('handoff.usePhone')}
          </button>
        )}
        {askConsent && state === 'intro' && (
          <button
            type="button"
            className="button button-secondary"
            onClick={decline}
            disabled={call.busy}
          >
            {t('consent.decline')}
          </button>
        )}
        {failed && (
          <button
            type="button"
            className={noCamera ? 'button button-secondary' : 'button'}
            onClick={() => void ask()}
            disabled={call.busy}
          >
            {t('app.retry')}
          </button>
        )}
        {/* Going on without the devices can end the verification: never the prominent choice. */}
        {(failed || micOnly) && (
          <button
            type="button"
            className={failed ? 'button button-quiet' : 'button button-secondary'}
            onClick={() => finish(false)}
            disabled={call.busy}
          >
            {micOnly ? t('permissions.skipVoice') : t('permissions.continueWithout')}
          </button>
        )}
      </div>
    </section>
  );
}
