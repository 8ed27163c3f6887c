/**
 * The document types a `document_scan` node may allow (the 81 of the FaceSign SDK,
 * `compat.md` §3.7) and what the service reads on each, shared by the flow's node kind, the
 * server's reader and the page's document screen (docs/documents.md, "Document types"). A
 * type is read as one of five kinds of document, each by what it carries:
 *
 * - `passport`: the TD3 zone of a passport's data page (code `P`);
 * - `id`: the TD1 or TD2 zone of an identity card (codes `I`, `A`, `C`), or the AAMVA barcode of a
 *   North American state ID card;
 * - `residence-permit`: the TD1 or TD2 zone such permits carry;
 * - `visa`: the MRV-A or MRV-B zone of a visa (code `V`);
 * - `dl`: the AAMVA PDF417 barcode on the back of a North American driving licence.
 *
 * The other types carry nothing this service can read (no ICAO zone, no AAMVA barcode): a node may
 * list them beside readable ones (they are then not offered), but not only them.
 */

export const DOCUMENT_TYPES = [
  'address-card',
  'afghan-citizen-card',
  'alien-id',
  'alien-passport',
  'asic-card',
  'asylum-request',
  'bidoon-card',
  'border-crossing-card',
  'citizenship-certificate',
  'consular-id',
  'consular-passport',
  'consular-voter-id',
  'diplomatic-id',
  'dl',
  'dl-public-services-card',
  'driver-card',
  'driver-qualification-card',
  'driving-privilege-card',
  'eid',
  'employment-pass',
  'esaad-card',
  'exit-entry-permit',
  'fin-card',
  'global-entry-card',
  'green-card',
  'health-insurance-card',
  'id',
  'ikad',
  'immigrant-visa',
  'interim-health-insurance-card',
  'mainland-travel-permit-taiwan',
  'medical-marijuana-id',
  'military-id',
  'minors-id',
  'minors-passport',
  'minors-public-services-card',
  'multipurpose-id',
  'my-number-card',
  'mykad',
  'mykas',
  'mykid',
  'mypolis',
  'mypr',
  'mytentera',
  'nbi-clearance',
  'nexus-card',
  'non-card-tribal-id',
  'non-voter-id',
  'pan-card',
  'pass',
  'passport',
  'passport-card',
  'postal-id',
  'professional-dl',
  'professional-id',
  'proof-of-age-card',
  'proof-of-registration',
  'provisional-dl',
  'public-services-card',
  'reciprocal-health-insurance-card',
  'refugee-id',
  'refugee-passport',
  'registration-certificate',
  'residence-permit',
  'resident-id',
  's-pass',
  'sis-id',
  'social-security-card',
  'special-id',
  'tax-id',
  'temporary-protection-permit',
  'temporary-residence-permit',
  'tribal-id',
  'twic-card',
  'uniformed-services-id',
  'vehicle-registration',
  'veteran-id',
  'visa',
  'voter-id',
  'weapon-permit',
  'work-permit',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The five kinds of document the service reads, in the order the page offers them. */
export const DOCUMENT_KINDS = ['passport', 'id', 'residence-permit', 'visa', 'dl'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * What each readable type is read as. Types that commonly carry an ICAO zone or an AAMVA barcode;
 * a document of one of them that carries neither is refused on the page with the documents that
 * work (docs/document-screen.md).
 */
const READ_AS: Partial<Record<DocumentType, DocumentKind>> = {
  passport: 'passport',
  'minors-passport': 'passport',
  'alien-passport': 'passport',
  'consular-passport': 'passport',
  'refugee-passport': 'passport',
  id: 'id',
  eid: 'id',
  'minors-id': 'id',
  'alien-id': 'id',
  'diplomatic-id': 'id',
  'refugee-id': 'id',
  'resident-id': 'id',
  'multipurpose-id': 'id',
  'passport-card': 'id',
  'green-card': 'id',
  'border-crossing-card': 'id',
  'mainland-travel-permit-taiwan': 'id',
  'exit-entry-permit': 'id',
  'residence-permit': 'residence-permit',
  'temporary-residence-permit': 'residence-permit',
  'temporary-protection-permit': 'residence-permit',
  'work-permit': 'residence-permit',
  visa: 'visa',
  'immigrant-visa': 'visa',
  dl: 'dl',
  'provisional-dl': 'dl',
  'professional-dl': 'dl',
  'driving-privilege-card': 'dl',
};

/**
 * What the service reads a document type as, or null when it reads nothing on it.
 *
 * @example
 * documentKindOf('minors-passport'); // 'passport'
 * documentKindOf('pan-card'); // null
 */
export function documentKindOf(type: string): DocumentKind | null {
  return READ_AS[type as DocumentType] ?? null;
}

/**
 * The kinds of document a node's allowed types let the user present, in the page's order.
 *
 * @example
 * kindsOf(['dl', 'passport', 'minors-passport', 'pan-card']); // ['passport', 'dl']
 */
export function kindsOf(types: readonly string[]): DocumentKind[] {
  const wanted = new Set(types.map(documentKindOf));
  return DOCUMENT_KINDS.filter((k) => wanted.has(k));
}

/** The types the service reads, for messages. */
export const READABLE_TYPES = DOCUMENT_TYPES.filter((t) => documentKindOf(t) !== null);
