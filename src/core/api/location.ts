import { Type, type Static } from '@sinclair/typebox';

const NamesSchema = Type.Object(
  {
    en: Type.String(),
    de: Type.Optional(Type.String()),
    es: Type.Optional(Type.String()),
    fr: Type.Optional(Type.String()),
    ja: Type.Optional(Type.String()),
    'pt-BR': Type.Optional(Type.String()),
    ru: Type.Optional(Type.String()),
    'zh-CN': Type.Optional(Type.String()),
  },
  { $id: 'GeoNames' },
);
export type GeoNames = Static<typeof NamesSchema>;

const GeonameId = Type.Integer({
  description: 'GeoNames id; 0 when not known (the shipped database carries none).',
});

const CountryRecordSchema = Type.Object({
  geonameId: GeonameId,
  isInEuropeanUnion: Type.Boolean(),
  isoCode: Type.String({ description: 'ISO 3166-1 alpha-2.' }),
  names: NamesSchema,
  confidence: Type.Optional(Type.Number()),
});

/** The GeoIP2 City record members this service fills (compat.md §4.10); the others are never sent. */
export const LocationSchema = Type.Object(
  {
    city: Type.Optional(
      Type.Object({
        geonameId: GeonameId,
        names: NamesSchema,
        confidence: Type.Optional(Type.Number()),
      }),
    ),
    country: Type.Optional(CountryRecordSchema),
    registeredCountry: Type.Optional(CountryRecordSchema),
    location: Type.Optional(
      Type.Object({
        accuracyRadius: Type.Number({ description: 'Kilometres; 0 when not known.' }),
        latitude: Type.Number(),
        longitude: Type.Number(),
        timeZone: Type.Optional(Type.String()),
      }),
    ),
    postal: Type.Optional(
      Type.Object({ code: Type.String(), confidence: Type.Optional(Type.Number()) }),
    ),
    subdivisions: Type.Optional(
      Type.Array(
        Type.Object({
          geonameId: GeonameId,
          isoCode: Type.String(),
          names: NamesSchema,
          confidence: Type.Optional(Type.Number()),
        }),
      ),
    ),
  },
  {
    $id: 'Location',
    description:
      'GeoIP2 City records (camelCase, as @maxmind/geoip2-node reads them) of the first opening; ' +
      'empty for private addresses (2025-09-01: `{ city, country, latitude, longitude, timezone }`).',
  },
);
export type Location = Static<typeof LocationSchema>;
