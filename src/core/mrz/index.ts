/**
 * Machine-readable zones of identity documents (ICAO 9303 TD1, TD2, TD3, MRV-A and MRV-B): check digits, layout,
 * position-aware correction of OCR output, parsing into `extractedData`. Pure: runs anywhere.
 */
export { charValue, checkDigit, checkDigitHolds } from './check-digit';
export { composeMrz, nameField, type MrzInput } from './compose';
export { cleanLine, correctMrz, type Corrected } from './correct';
export { isKnownCountry } from './countries';
export { birthDate, expiryDate, isExpired, isoDate, type CalendarDate } from './dates';
export {
  LAYOUTS,
  MRV_A,
  MRV_B,
  TD1,
  TD2,
  TD3,
  classesOf,
  compositeOf,
  layoutFor,
  layoutsFor,
  type CharClass,
  type MrzFormat,
  type MrzLayout,
} from './layout';
export {
  EXTRACTED_KEYS,
  parseMrz,
  splitName,
  type ExtractedDocumentData,
  type ExtractedKey,
  type MrzCheck,
  type MrzProblem,
  type MrzResult,
} from './parse';
