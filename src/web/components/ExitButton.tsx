import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * "Leave": asks for confirmation in a modal dialog (focus kept inside, Escape closes it), then
 * ends the session.
 *
 * @example
 * <ExitButton onExit={() => send({ type: 'EXIT' })} />
 */
export function ExitButton({ onExit, disabled }: { onExit(): void; disabled?: boolean }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        className="button button-quiet"
        disabled={disabled}
        onClick={() => dialog.current?.showModal()}
      >
        {t('exit.button')}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby="exit-question">
        <p id="exit-question">{t('exit.question')}</p>
        <div className="actions">
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              dialog.current?.close();
              onExit();
            }}
          >
            {t('exit.confirm')}
          </button>
          <button
            type="button"
            className="button button-secondary"
            autoFocus
            onClick={() => dialog.current?.close()}
          >
            {t('exit.keep')}
          </button>
        </div>
      </dialog>
    </>
  );
}
