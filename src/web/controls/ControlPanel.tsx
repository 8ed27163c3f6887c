import { useTranslation } from 'react-i18next';
import { CaptionsIcon, GlobeIcon, SpeakerIcon } from '../components/Icons';
import { LANGUAGE_NAMES } from '../i18n/languageNames';
import { usePrefs } from '../prefs/store';

/**
 * The control panel: transcript on/off, the guide's voice on/off (where the browser can speak),
 * and the language when the session offers several. Rendered only when `showUxControls` allows.
 *
 * @example
 * <ControlPanel captionsOpen={open} voiceSupported langs={['en', 'fr']} lang="en" onLang={set} />
 */
export function ControlPanel({
  captionsOpen,
  voiceSupported,
  langs,
  lang,
  onLang,
  shown = { captions: true, voice: true, language: true },
}: {
  captionsOpen: boolean;
  voiceSupported: boolean;
  /** Which controls `customization.controls.buttons` keeps (see planControls). */
  shown?: { captions: boolean; voice: boolean; language: boolean };
  langs: readonly string[];
  lang: string;
  onLang(lang: string): void;
}) {
  const { t } = useTranslation();
  const voiceOn = usePrefs((s) => s.voiceOn);
  const setVoiceOn = usePrefs((s) => s.setVoiceOn);
  const setCaptionsOpen = usePrefs((s) => s.setCaptionsOpen);
  return (
    <nav className="controls" aria-label={t('controls.label')}>
      {shown.captions && (
        <button
          type="button"
          className="button button-quiet"
          aria-expanded={captionsOpen}
          aria-controls="captions"
          onClick={() => setCaptionsOpen(!captionsOpen)}
        >
          <CaptionsIcon />
          <span className="control-label">
            {captionsOpen ? t('controls.hideCaptions') : t('controls.showCaptions')}
          </span>
        </button>
      )}
      {voiceSupported && shown.voice && (
        <button type="button" className="button button-quiet" onClick={() => setVoiceOn(!voiceOn)}>
          <SpeakerIcon off={!voiceOn} />
          <span className="control-label">
            {voiceOn ? t('controls.voiceOff') : t('controls.voiceOn')}
          </span>
        </button>
      )}
      {shown.language && langs.length > 1 && (
        <label className="lang-select">
          <GlobeIcon />
          <span className="visually-hidden">{t('controls.language')}</span>
          <select value={lang} onChange={(e) => onLang(e.target.value)}>
            {langs.map((code) => (
              <option key={code} value={code} lang={code}>
                {LANGUAGE_NAMES[code] ?? code}
              </option>
            ))}
          </select>
        </label>
      )}
    </nav>
  );
}
