import type en from '../../../locales/en.json';

// English is the reference: every `t()` key is checked against it at compile time, so a key that
// does not exist in `locales/en.json` fails `tsc`.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
