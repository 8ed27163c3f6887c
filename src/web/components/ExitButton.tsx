import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ExitIcon } from './Icons';

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
  const keep = useRef<HTMLButtonElement>(null);
  // The safe answer takes the focus, so Enter does not end the session by accident.
  const open = () => {
    dialog.current?.showModal();
    keep.current?.focus();
  };
  return (
    <>
      <button type="button" className="button button-quiet" disabled={disabled} onClick={open}>
        <ExitIcon />
        <span>{t('exit.button')}</span>
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
            ref={keep}
            onClick={() => dialog.current?.close()}
          >
            {t('exit.keep')}
          </button>
        </div>
      </dialog>
    </>
  );
}
