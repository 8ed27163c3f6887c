/**
 * A document_scan's fields (MRZ or AAMVA, docs/documents.md) as the original product's
 * DocumentScanReport, whose names follow Microblink BlinkID's result (compat.md §4.5). Only what
 * JSON can carry: no images (they are in `media`), no `mrz` or `barcode` sub-results.
 */
type StringResult = Record<'latin' | 'arabic' | 'cyrillic' | 'greek', { value: string }>;

const stringResult = (latin: string): StringResult => ({
  latin: { value: latin },
  arabic: { value: '' },
  cyrillic: { value: '' },
  greek: { value: '' },
});

function dateResult(iso: string) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return undefined;
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    originalString: stringResult(iso),
    filledByDomainKnowledge: false,
    successfullyParsed: true,
  };
}

/** Our field → BlinkID's StringResult field. */
const TEXT_FIELDS: Record<string, string> = {
  firstName: 'firstName',
  lastName: 'lastName',
  documentNumber: 'documentNumber',
  nationality: 'nationality',
  sex: 'sex',
  address: 'address',
};

/**
 * The DocumentScanReport of a node's recorded fields; the minimal valid report when none were
 * read (a tester's choice in test mode).
 *
 * @example
 * documentScanReport({ format: 'TD3', fields: { firstName: 'ANNA', lastName: 'ERIKSSON', documentType: 'passport', issuingCountry: 'UTO', dateOfBirth: '1974-08-12' } });
 * // { mode: 'mrz-passport', documentClassInfo: { type: 'passport', isoAlpha3CountryCode: 'UTO' },
 * //   firstName: { latin: { value: 'ANNA' }, … }, fullName: …, dateOfBirth: { year: 1974, … }, subResults: [] }
 */
export function documentScanReport(details: Record<string, unknown> | undefined) {
  const fields = (details?.['fields'] ?? {}) as Record<string, string>;
  const format = typeof details?.['format'] === 'string' ? details['format'] : '';
  const type = fields['documentType'];
  const country = fields['issuingCountry'];
  const out: Record<string, unknown> = {
    documentClassInfo: {
      // Our kinds (passport, id, dl, residence-permit) are DocumentType values as they are.
      ...(type ? { type } : {}),
      ...(country && /^[A-Z]{3}$/.test(country) ? { isoAlpha3CountryCode: country } : {}),
      ...(country && /^[A-Z]{2}$/.test(country) ? { isoAlpha2CountryCode: country } : {}),
    },
  };
  if (format) {
    out['mode'] = format.startsWith('TD')
      ? type === 'passport'
        ? 'mrz-passport'
        : 'mrz-id'
      : 'barcode-id';
  }
  for (const [ours, theirs] of Object.entries(TEXT_FIELDS)) {
    if (fields[ours]) out[theirs] = stringResult(fields[ours]);
  }
  const full = [fields['firstName'], fields['lastName']].filter(Boolean).join(' ');
  if (full) out['fullName'] = stringResult(full);
  const dob = fields['dateOfBirth'] ? dateResult(fields['dateOfBirth']) : undefined;
  if (dob) out['dateOfBirth'] = dob;
  const exp = fields['expiryDate'] ? dateResult(fields['expiryDate']) : undefined;
  if (exp) out['dateOfExpiry'] = exp;
  out['subResults'] = [];
  return out;
}
