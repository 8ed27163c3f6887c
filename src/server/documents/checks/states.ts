/**
 * Issuing states and nationalities: a zone's codes must be ICAO's (ISO 3166-1 alpha-3, `D`, the
 * organisations' and special codes); `UTO`, the fictional state of ICAO's specimens, is accepted
 * in test mode only, where test documents may carry it. A licence's issuer must be an AAMVA
 * jurisdiction: its IIN in AAMVA's ranges and its jurisdiction a US or Canadian one.
 */
import { countryOfJurisdiction, isAamvaIin, type AamvaResult } from '../../../core/aamva';
import { isKnownCountry } from '../../../core/mrz';
import { check, type DocumentCheck } from './types';

/** Codes that name no state: documents bearing them are specimens. */
export const SPECIMEN_STATES: ReadonlySet<string> = new Set(['UTO']);

/**
 * The check of one three-letter code (fillers stripped or not).
 *
 * @example
 * stateCheck('issuingState', 'UTO', 'live'); // failed: 'UTO is the ICAO specimen state (test mode only)'
 * stateCheck('nationality', 'D', 'live'); // passed
 */
export function stateCheck(
  name: 'issuingState' | 'nationality',
  code: string,
  mode: 'test' | 'live',
): DocumentCheck {
  const field = (code + '<<<').slice(0, 3);
  const bare = field.replace(/<+$/, '');
  if (!isKnownCountry(field)) return check(name, false, `${bare} is no state's code`);
  if (SPECIMEN_STATES.has(bare) && mode !== 'test')
    return check(name, false, `${bare} is the ICAO specimen state (test mode only)`);
  return check(name, true, bare);
}

/**
 * A licence's issuer: AAMVA IIN, a US or Canadian jurisdiction, and the country it states (if
 * any) that jurisdiction's.
 *
 * @example
 * licenceIssuerCheck(parseAamva(text, today)!); // passed: '636014 CA'
 */
export function licenceIssuerCheck(l: AamvaResult): DocumentCheck {
  const jurisdiction = (l.elements['DAJ'] ?? '').trim().toUpperCase();
  const country = countryOfJurisdiction(jurisdiction);
  const stated = (l.elements['DCG'] ?? '').trim().toUpperCase();
  const detail = `${l.iin} ${jurisdiction || '?'}`;
  if (!isAamvaIin(l.iin))
    return check('issuingState', false, `${detail}: IIN is no AAMVA member's`);
  if (!country) return check('issuingState', false, `${detail}: no US or Canadian jurisdiction`);
  if (stated && stated !== country)
    return check('issuingState', false, `${detail}: ${jurisdiction} is not in ${stated}`);
  return check('issuingState', true, detail);
}
