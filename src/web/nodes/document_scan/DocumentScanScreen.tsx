import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DOCUMENT_KINDS, kindsOf } from '../../../core/documents/types';
import { ClientApiError } from '../../api/errors';
import { blobToBase64 } from '../../camera/base64';
import { holdMessage, NO_MESSAGE, type HeldMessage } from '../../camera/messageHold';
import { cameraErrorMessages, denialHelpText } from '../../camera/useCaptureStrings';
import { CallProblem } from '../../components/Notice';
import { UploadIcon } from '../../components/Icons';
import { StepHeading } from '../../components/StepHeading';
import { DocumentCapture, type DocumentCaptureStrings } from '../../document/DocumentCapture';
import { DocumentOffer } from '../../document/DocumentOffer';
import type { DocumentType } from '../../document/guide';
import type { GuideState } from '../../document/GuideOverlay';
import {
  initialScan,
  readyToCapture,
  scanHint,
  scanStep,
  type FrameReading,
  type PhotoSource,
  type ScanHint,
  type ScanState,
} from '../../document/scanState';
import { fileToJpeg, UPLOAD_ACCEPT } from '../../document/upload';
import type { ScreenProps } from '../../screens/types';
import { useServerCall } from '../../screens/useServerCall';

/** The node's default: one type of each kind the server reads. */
const ALL_TYPES: readonly DocumentType[] = DOCUMENT_KINDS;
/** Hints that come from the camera's frames (held steady); the others show at once. */
const FRAME_HINTS = new Set<ScanHint>(['place', 'placeFront', 'placeBack', 'focus', 'holdStill']);
/** After a refused early timeout (the page's clock ran ahead of the server's), ask again this much later. */
const TIMEOUT_AGAIN_MS = 3000;

/**
 * The document_scan node (docs/document-screen.md): the back camera with a frame for the chosen
 * document type, the photo taken automatically when the document fills the frame, sharp and
 * still (or with the shutter), sent to the server one at a time, which reads the zone and decides;
 * a file upload always offered (the only way without a camera); Cancel ends the node
 * `userCancelled` and the node's `timeoutSeconds` `scanTimeout`.
 */
export default function DocumentScanScreen({ node, api, send }: ScreenProps<'document_scan'>) {
  const { t } = useTranslation();
  // The node's types grouped by what the server reads on them (a minors' passport is a passport).
  const allowed = node.allowedDocumentTypes?.length ? kindsOf(node.allowedDocumentTypes) : [];
  const types = allowed.length ? allowed : ALL_TYPES;
  const mode = node.scanningMode ?? 'single';
  const timeoutSeconds = node.timeoutSeconds ?? 120;
  const [state, dispatch] = useReducer(scanStep, undefined, () =>
    initialScan(types[0] ?? 'passport', mode),
  );
  // The hint shown: guidance from the frames changes only after holding for 600 ms (a wavering
  // reading would make the live region chatter); reading, refusals and sides show at once.
  const [shown, setShown] = useState<ScanHint>(() => scanHint(state, null, 0));
  const held = useRef<HeldMessage>(NO_MESSAGE);
  const [fileProblem, setFileProblem] = useState(false);
  const upload = useServerCall(send, api);
  const leave = useServerCall(send, api);
  const grabRef = useRef<(() => Promise<Blob>) | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  // The latest state for callbacks that the camera loop calls between renders.
  const current = useRef<ScanState>(state);
  useEffect(() => {
    current.current = state;
  }, [state]);
  // A photo is on its way: set at once, before React renders the `busy` state.
  const sending = useRef(false);

  const sendPhoto = useCallback(
    (source: PhotoSource, photo: () => Promise<Blob>) => {
      const s = current.current;
      if (sending.current || s.busy || s.ended) return;
      sending.current = true;
      dispatch({ type: 'send', source });
      const side = s.side;
      void upload
        .run(async () => {
          try {
            const image = await blobToBase64(await photo());
            const answer = await api.documentUpload(node.id, { side, image, documentType: s.type });
            dispatch({ type: 'answer', answer, now: performance.now() });
            if (answer.status !== 'retry') send({ type: 'POSITION', position: answer.position });
          } catch (error) {
            const network = error instanceof ClientApiError && error.isNetwork;
            dispatch({
              type: 'failed',
              problem: network ? 'network' : 'refused',
              now: performance.now(),
            });
            throw error;
          }
        })
        .finally(() => {
          sending.current = false;
        });
    },
    [api, node.id, send, upload],
  );

  const shoot = useCallback(
    (source: PhotoSource) => {
      const grab = grabRef.current;
      if (grab) sendPhoto(source, grab);
    },
    [sendPhoto],
  );

  const onReading = useCallback(
    (r: FrameReading, at: number) => {
      const wanted = scanHint(current.current, r, at);
      held.current = holdMessage(held.current, wanted, at, {
        immediate: !FRAME_HINTS.has(wanted),
      });
      if (held.current.shown) setShown(held.current.shown as ScanHint);
      if (readyToCapture(current.current, r, at)) shoot('auto');
    },
    [shoot],
  );

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setFileProblem(false);
    try {
      const jpeg = await fileToJpeg(file);
      sendPhoto('upload', () => Promise.resolve(jpeg));
    } catch {
      setFileProblem(true);
    }
  };

  // The node's time, from when the screen opened (the server counts from when the session
  // reached the node, and allows 2 s for the page's clock).
  useEffect(() => {
    const timer = setTimeout(() => dispatch({ type: 'timeUp' }), timeoutSeconds * 1000);
    return () => clearTimeout(timer);
  }, [timeoutSeconds]);

  const endNode = useCallback(
    (how: 'cancel' | 'timeout') =>
      void leave.run(async () => {
        try {
          const { position } =
            how === 'cancel'
              ? await api.documentCancel(node.id)
              : await api.documentTimeout(node.id);
          dispatch({ type: 'left' });
          send({ type: 'POSITION', position });
        } catch (error) {
          if (error instanceof ClientApiError && error.code === 'scan_not_timed_out') {
            dispatch({ type: 'tooEarly' });
            setTimeout(() => dispatch({ type: 'timeUp' }), TIMEOUT_AGAIN_MS);
            return;
          }
          const network = error instanceof ClientApiError && error.isNetwork;
          dispatch({ type: 'failed', problem: network ? 'network' : 'refused', now: 0 });
          throw error;
        }
      }),
    [api, leave, node.id, send],
  );

  // The timeout call goes when the time is up and no photo is being read (a photo being read
  // gets its answer first: the server may read it in time, or answer `timeout` itself).
  const timingOut = state.busy === 'timingOut';
  useEffect(() => {
    if (timingOut) endNode('timeout');
  }, [timingOut, endNode]);
  useEffect(() => {
    if (state.timeUp && state.busy === null && !state.ended) dispatch({ type: 'timeUp' });
  }, [state.timeUp, state.busy, state.ended]);

  const hintText = useHintText(shown, state.type);
  const strings = useCaptureStrings();
  const guideState: GuideState =
    state.busy === 'reading' ? 'reading' : shown === 'holdStill' ? 'found' : 'searching';
  const cameraUsable = state.camera === 'starting' || state.camera === 'live';
  const canAct = !state.ended && state.busy === null;

  return (
    <section
      className="card"
      aria-labelledby="document-title"
      data-testid="document-screen"
      data-type={state.type}
      data-side={state.side}
      data-busy={state.busy ?? 'none'}
      data-attempts={state.attempts}
      data-last-retry={state.lastRetry ?? undefined}
    >
      <p className="eyebrow">{t('nodes.document_scan')}</p>
      <StepHeading id="document-title">{t('document.heading')}</StepHeading>
      <p>{t('document.intro')}</p>
      {types.length > 1 ? (
        <div role="group" aria-labelledby="document-type-label" className="actions">
          <span id="document-type-label" style={{ alignSelf: 'center', fontWeight: 600 }}>
            {t('document.typeLabel')}
          </span>
          {types.map((type) => (
            <button
              key={type}
              type="button"
              className={`button${type === state.type ? '' : ' button-secondary'}`}
              aria-pressed={type === state.type}
              disabled={!canAct}
              data-testid={`document-type-${type}`}
              onClick={() => dispatch({ type: 'choose', documentType: type })}
            >
              {t(`document.types.${type}`)}
            </button>
          ))}
        </div>
      ) : null}
      {state.type !== 'passport' && state.type !== 'visa' && mode === 'automatic' ? (
        <p className="muted" data-testid="document-side">
          {state.side === 'front' ? t('document.sideFront') : t('document.sideBack')}
        </p>
      ) : null}
      {state.offer && !state.ended ? (
        <DocumentOffer
          reason={state.offer}
          type={state.type}
          types={types}
          onRetry={() => dispatch({ type: 'retryOffer' })}
          onUpload={() => fileInput.current?.click()}
          onChoose={(documentType) => dispatch({ type: 'choose', documentType })}
        />
      ) : null}
      {!state.ended ? (
        <DocumentCapture
          type={state.type}
          message={hintText}
          guideState={guideState}
          strings={strings}
          showTorch={node.showTorchButton ?? true}
          showSwitch={node.showCameraSwitch ?? true}
          showMirror={node.showMirrorCameraButton ?? true}
          shutterDisabled={!canAct}
          onReading={onReading}
          onShutter={() => shoot('manual')}
          onCamera={(status) =>
            dispatch(
              status === 'starting' || status === 'live'
                ? { type: 'camera', status }
                : { type: 'cameraError', kind: status },
            )
          }
          grabRef={grabRef}
        />
      ) : null}
      {!cameraUsable && state.busy === 'reading' ? (
        <p role="status" data-testid="document-reading">
          {t('document.hints.reading')}
        </p>
      ) : null}
      {state.lastRetry && !cameraUsable ? (
        <p role="status" data-testid="document-retry-reason">
          {hintTextFor(t, state.lastRetry, state.type)}
        </p>
      ) : null}
      {state.attempts > 0 ? (
        <p className="muted" data-testid="document-attempts">
          {t('document.attempts', { count: state.attempts })}
        </p>
      ) : null}
      <div style={{ marginTop: '1rem' }}>
        {!cameraUsable ? <p>{t('document.uploadOnly')}</p> : null}
        {/* The input is hidden; its label is the button (styled, in the session's language,
            where the native control would show the browser's own "No file chosen"). */}
        <input
          id="document-file"
          ref={fileInput}
          className="file-input visually-hidden"
          type="file"
          accept={UPLOAD_ACCEPT}
          data-testid="document-file"
          disabled={!canAct}
          aria-describedby="document-file-help"
          onChange={(e) => {
            void onFile(e.currentTarget.files?.[0]);
            // The same file may be chosen again after a refusal.
            e.currentTarget.value = '';
          }}
        />
        <label className="button button-secondary file-button" htmlFor="document-file">
          <UploadIcon />
          {t('document.upload')}
        </label>
        <p id="document-file-help" className="muted">
          {t('document.uploadHelp')}
        </p>
        {fileProblem ? (
          <p className="field-error" role="alert" data-testid="document-file-problem">
            {t('document.uploadRefused')}
          </p>
        ) : null}
      </div>
      <CallProblem
        problem={upload.problem}
        message={t('document.sendFailed')}
        onRetry={upload.retry}
      />
      <CallProblem
        problem={leave.problem}
        message={t('faceScan.cancelFailed')}
        onRetry={leave.retry}
      />
      {!state.ended ? (
        <div className="actions">
          <button
            type="button"
            className="button button-secondary"
            data-testid="document-cancel"
            disabled={!canAct}
            onClick={() => {
              dispatch({ type: 'cancel' });
              endNode('cancel');
            }}
          >
            {t('document.cancel')}
          </button>
        </div>
      ) : null}
    </section>
  );
}

type T = ReturnType<typeof useTranslation>['t'];

/** The words of a hint for the document type (the place hints name the document). */
function hintTextFor(t: T, hint: ScanHint, type: DocumentType): string {
  switch (hint) {
    case 'place':
      return type === 'visa' ? t('document.hints.placeVisa') : t('document.hints.placePassport');
    case 'placeFront':
      return type === 'dl'
        ? t('document.hints.placeLicenceFront')
        : type === 'residence-permit'
          ? t('document.hints.placePermitFront')
          : t('document.hints.placeIdFront');
    case 'placeBack':
      return type === 'dl'
        ? t('document.hints.placeLicenceBack')
        : type === 'residence-permit'
          ? t('document.hints.placePermitBack')
          : t('document.hints.placeIdBack');
    case 'focus':
      return t('document.hints.focus');
    case 'holdStill':
      return t('document.hints.holdStill');
    case 'reading':
      return t('document.hints.reading');
    case 'done':
      return t('document.hints.done');
    case 'unreadable':
      return t('document.hints.unreadable');
    case 'checks_failed':
      return t('document.hints.checksFailed');
    case 'expired':
      return t('document.hints.expired');
    case 'front_saved':
      return t('document.hints.frontSaved');
    case 'no_barcode':
      return t('document.hints.noBarcode');
    case 'not_genuine':
      return t('document.hints.notGenuine');
  }
}

function useHintText(hint: ScanHint, type: DocumentType): string {
  const { t } = useTranslation();
  return hintTextFor(t, hint, type);
}

function useCaptureStrings(): DocumentCaptureStrings {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      loading: t('liveness.loading'),
      shutter: t('document.shutter'),
      torchOn: t('document.torchOn'),
      torchOff: t('document.torchOff'),
      switchCamera: t('liveness.switchCamera'),
      mirror: t('document.mirror'),
      retry: t('app.retry'),
      cameraErrors: cameraErrorMessages(t),
      denialHelp: denialHelpText(t),
    }),
    [t],
  );
}
