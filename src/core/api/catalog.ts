import { Type, type Static } from '@sinclair/typebox';

/** The nine languages of the spec, `pt` included (decisions.md, "Conflicts"). */
export const LANGUAGES = [
  { id: 'en', title: 'English' },
  { id: 'fr', title: 'Français' },
  { id: 'de', title: 'Deutsch' },
  { id: 'ru', title: 'Русский' },
  { id: 'es', title: 'Español' },
  { id: 'id', title: 'Bahasa Indonesia' },
  { id: 'no', title: 'Norsk' },
  { id: 'pt', title: 'Português' },
  { id: 'it', title: 'Italiano' },
] as const;

export type LangCode = (typeof LANGUAGES)[number]['id'];
export const LANG_CODES: readonly LangCode[] = LANGUAGES.map((l) => l.id);
export const DEFAULT_LANG: LangCode = 'en';

export const LanguageSchema = Type.Object(
  {
    id: Type.String({ description: 'ISO 639-1 code.' }),
    title: Type.String({ description: 'The language name, written in that language.' }),
  },
  { $id: 'Language' },
);
export type Language = Static<typeof LanguageSchema>;

export const AvatarGenderSchema = Type.Union([
  Type.Literal('male'),
  Type.Literal('female'),
  Type.Literal('unknown'),
]);

export const AvatarSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    gender: AvatarGenderSchema,
    imageUrl: Type.String({ description: 'Absolute URL of the profile image.' }),
    createdAt: Type.Integer({ description: 'Unix milliseconds (seconds in 2025-01-01).' }),
  },
  { $id: 'Avatar' },
);
export type Avatar = Static<typeof AvatarSchema>;

export const AvatarListSchema = Type.Object(
  { avatars: Type.Array(AvatarSchema) },
  { $id: 'AvatarList' },
);
export const LanguageListSchema = Type.Object(
  { langs: Type.Array(LanguageSchema) },
  { $id: 'LanguageList' },
);
