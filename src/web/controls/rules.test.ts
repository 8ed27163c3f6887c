import { describe, expect, it } from 'vitest';
import { localized, planControls, planPermissionsPage } from './rules';

describe('planControls', () => {
  it('shows the panel with captions closed by default', () => {
    expect(planControls(undefined)).toMatchObject({ showPanel: true, captionsOpenAtStart: false });
    expect(planControls({})).toMatchObject({ showPanel: true, captionsOpenAtStart: false });
  });

  it('opens captions at start when asked', () => {
    expect(planControls({ captionsOpenedByDefault: true })).toMatchObject({
      showPanel: true,
      captionsOpenAtStart: true,
    });
  });

  it('hides the panel and silences every other setting when the master switch is off', () => {
    expect(planControls({ showUxControls: false, captionsOpenedByDefault: true })).toMatchObject({
      showPanel: false,
      captionsOpenAtStart: false,
    });
  });

  it('draws every control without buttons, exactly the listed ones with them, no panel for none', () => {
    const all = { captions: true, voice: true, language: true, close: true };
    expect(planControls({})).toMatchObject(all);
    expect(planControls({ buttons: ['captions', 'microphone'], autoHide: false })).toEqual({
      showPanel: true,
      captionsOpenAtStart: false,
      captions: true,
      voice: false,
      language: false,
      close: false,
    });
    expect(planControls({ buttons: ['language', 'close'] })).toMatchObject({
      captions: false,
      language: true,
      close: true,
    });
    expect(planControls({ buttons: [], captionsOpenedByDefault: true })).toMatchObject({
      showPanel: false,
      captionsOpenAtStart: false,
    });
  });
});

describe('permissions page', () => {
  const defaults = { heading: 'H', subheading: 'S', buttonText: 'Continue' };

  it('prefers the translation for the language, then the field, then our words', () => {
    expect(localized('Start', { fr: 'Commencer' }, 'fr', 'x')).toBe('Commencer');
    expect(localized('Start', { fr: 'Commencer' }, 'de', 'x')).toBe('Start');
    expect(localized(undefined, { fr: ' ' }, 'fr', 'x')).toBe('x');
  });

  it('resolves every field and the background kind', () => {
    const plan = planPermissionsPage(
      {
        mainHeading: 'Welcome',
        mainHeadingTranslates: { ru: 'Добро пожаловать' },
        subheading: 'Sub',
        subheadingTranslates: { ru: 'Подзаголовок' },
        buttonText: 'Go',
        buttonTextTranslates: { ru: 'Вперёд' },
        backgroundType: 'COLOR',
        backgroundColor: '#123456',
      },
      'ru',
      defaults,
    );
    expect(plan).toEqual({
      heading: 'Добро пожаловать',
      subheading: 'Подзаголовок',
      buttonText: 'Вперёд',
      background: { kind: 'color', color: '#123456' },
    });
  });

  it('uses the avatar background by default and when no colour is given', () => {
    expect(planPermissionsPage(undefined, 'en', defaults)).toEqual({
      ...defaults,
      background: { kind: 'avatar' },
    });
    expect(planPermissionsPage({ backgroundType: 'COLOR' }, 'en', defaults).background).toEqual({
      kind: 'avatar',
    });
  });
});
