import type { ControlsCustomization, PermissionsPageCustomization } from '../api/types';

/** What `customization.controls` means for the page, once the spec's rules are applied. */
export interface ControlsPlan {
  /** The control panel (transcript and voice toggles, language) is rendered. */
  showPanel: boolean;
  /** The transcript panel is open when the session starts. */
  captionsOpenAtStart: boolean;
  /** Which of the panel's controls are drawn (the language one only with two or more languages). */
  captions: boolean;
  voice: boolean;
  language: boolean;
  /** The exit button beside the panel (`close` in `buttons`). */
  close: boolean;
}

/**
 * Applies the spec's controls rules: `showUxControls` (default true) is the master switch; when it
 * is false the panel is not rendered and every other setting has no effect, silently.
 * `captionsOpenedByDefault` (default false) opens the transcript at start. `buttons`, when given,
 * is the exact set drawn: `captions`, `language` and `close` are this page's; `microphone` and
 * `camera` name toggles the page does not have (the browser's own permission controls stand for
 * them), and the guide's voice toggle, not in that set, is left out (the guide then speaks).
 * An empty list draws no panel. `autoHide` needs nothing: the panel never fades out.
 *
 * @example
 * planControls({ showUxControls: false, captionsOpenedByDefault: true }).showPanel; // false
 * planControls({ buttons: ['captions'] }); // { showPanel: true, captions: true, voice: false, language: false, close: false, … }
 */
export function planControls(controls: ControlsCustomization | undefined): ControlsPlan {
  const all = { captions: true, voice: true, language: true, close: true };
  if (controls?.showUxControls === false)
    return { showPanel: false, captionsOpenAtStart: false, ...all };
  const buttons = controls?.buttons;
  const shown = buttons
    ? {
        captions: buttons.includes('captions'),
        voice: false,
        language: buttons.includes('language'),
        close: buttons.includes('close'),
      }
    : all;
  const showPanel = buttons === undefined || buttons.length > 0;
  return {
    showPanel,
    captionsOpenAtStart: showPanel && controls?.captionsOpenedByDefault === true,
    ...shown,
  };
}

/**
 * An integrator's text in the session's language: the `*Translates` entry for that language when
 * there is one, else the plain field, else the page's own words.
 *
 * @example
 * localized('Start', { fr: 'Commencer' }, 'fr', 'Continue'); // 'Commencer'
 * localized(undefined, undefined, 'de', 'Weiter'); // 'Weiter'
 */
export function localized(
  text: string | undefined,
  translates: Record<string, string> | undefined,
  lang: string,
  fallback: string,
): string {
  const translated = translates?.[lang];
  if (typeof translated === 'string' && translated.trim()) return translated;
  if (typeof text === 'string' && text.trim()) return text;
  return fallback;
}

/** The permissions page as it will be shown, every field resolved. */
export interface PermissionsPagePlan {
  heading: string;
  subheading: string;
  buttonText: string;
  background: { kind: 'avatar' } | { kind: 'color'; color: string };
}

/**
 * Resolves `customization.permissionsPage` for a language. `backgroundType` is `AVATAR` by
 * default; `COLOR` uses `backgroundColor` (and falls back to the avatar when no colour is given).
 *
 * @example
 * planPermissionsPage({ mainHeading: 'Hi', mainHeadingTranslates: { fr: 'Salut' } }, 'fr', defaults)
 *   .heading; // 'Salut'
 */
export function planPermissionsPage(
  page: PermissionsPageCustomization | undefined,
  lang: string,
  defaults: { heading: string; subheading: string; buttonText: string },
): PermissionsPagePlan {
  const color = page?.backgroundColor?.trim();
  return {
    heading: localized(page?.mainHeading, page?.mainHeadingTranslates, lang, defaults.heading),
    subheading: localized(page?.subheading, page?.subheadingTranslates, lang, defaults.subheading),
    buttonText: localized(page?.buttonText, page?.buttonTextTranslates, lang, defaults.buttonText),
    background:
      page?.backgroundType?.toUpperCase() === 'COLOR' && color
        ? { kind: 'color', color }
        : { kind: 'avatar' },
  };
}
