import { describe, expect, it } from 'vitest';
import { validateFlow } from '../flow/validate';
import { DOCUMENT_TYPES, documentKindOf, kindsOf, READABLE_TYPES } from './types';

const flow = (allowedDocumentTypes: unknown) => [
  { id: 'start', type: 'start', outcome: 'scan' },
  {
    id: 'scan',
    type: 'document_scan',
    allowedDocumentTypes,
    outcomes: { scanSuccess: 'end', userCancelled: 'end', scanTimeout: 'end' },
  },
  { id: 'end', type: 'end' },
];

describe('document types', () => {
  it('are the 81 of the FaceSign SDK, each read as one kind of document or not at all', () => {
    expect(DOCUMENT_TYPES).toHaveLength(81);
    expect(new Set(DOCUMENT_TYPES).size).toBe(81);
    expect(documentKindOf('refugee-passport')).toBe('passport');
    expect(documentKindOf('temporary-residence-permit')).toBe('residence-permit');
    expect(documentKindOf('immigrant-visa')).toBe('visa');
    expect(documentKindOf('provisional-dl')).toBe('dl');
    expect(documentKindOf('green-card')).toBe('id');
    expect(documentKindOf('pan-card')).toBeNull();
    expect(READABLE_TYPES.length).toBeGreaterThan(20);
  });
  it('give the kinds a node offers, in the page’s order, without repeats', () => {
    expect(kindsOf(['dl', 'minors-passport', 'passport', 'pan-card', 'visa'])).toEqual([
      'passport',
      'visa',
      'dl',
    ]);
  });
  it('are all accepted in a flow; a node allowing only unreadable ones is refused, saying which work', () => {
    expect(validateFlow(flow(['residence-permit', 'visa', 'mykad']))).toEqual([]);
    expect(validateFlow(flow([...DOCUMENT_TYPES]))).toEqual([]);
    const problems = validateFlow(flow(['pan-card', 'tax-id']));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toContain('allowedDocumentTypes');
    expect(problems[0]!.message).toContain('none of pan-card, tax-id can be read');
    expect(problems[0]!.message).toContain('passport');
    expect(validateFlow(flow(['passport', 'library-card'])).length).toBeGreaterThan(0);
  });
});
