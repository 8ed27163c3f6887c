/**
 * North American driving licences and ID cards: the AAMVA card design standard's barcode text
 * (versions 1–10), parsed into `extractedData` and composed for tests. Pure: runs anywhere.
 */
export { aamvaElements, composeAamva, type AamvaInput } from './compose';
export { countryOfJurisdiction, isAamvaIin } from './jurisdictions';
export {
  LICENCE_KEYS,
  aamvaDate,
  parseAamva,
  type AamvaProblem,
  type AamvaResult,
  type LicenceData,
} from './parse';
