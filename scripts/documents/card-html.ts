/**
 * The HTML of a document page as Chromium draws it: a TD3 passport data page (125 × 88 mm) or
 * the two sides of a TD1 ID card (85.6 × 54 mm), MRZ in OCR-B at 10 characters an inch.
 */
import type { Specimen } from './specimens';

/** Pixels a millimetre in the flat render. */
export const PX_PER_MM = 10;

export const SIZES_MM = { passport: { w: 125, h: 88 }, id: { w: 85.6, h: 54 } } as const;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function human(yymmdd: string, future: boolean): string {
  const yy = Number(yymmdd.slice(0, 2));
  const year = future || yy > 26 ? (future ? 2000 + yy : 1900 + yy) : 2000 + yy;
  return `${yymmdd.slice(4, 6)}.${yymmdd.slice(2, 4)}.${year}`;
}

/**
 * A page for one side: `front` carries the photo and printed fields (and the MRZ of a passport),
 * `back` the MRZ of an ID card.
 *
 * @example
 * const html = cardHtml(specimen(1, 'passport', 'valid', 'clean'), 'front', fontUrl, faceUrl);
 */
export function cardHtml(
  s: Specimen,
  side: 'front' | 'back',
  fontUrl: string,
  faceUrl: string,
): string {
  const size = SIZES_MM[s.kind];
  const m = s.mrz;
  const mrzLines = s.lines.map((l) => `<div class="l">${esc(l)}</div>`).join('');
  const fields = [
    ['Surname / Nom', m.lastName],
    ['Given names / Prénoms', m.firstName],
    ['Nationality', m.nationality],
    ['Date of birth', human(m.dateOfBirth, false)],
    ['Sex', m.sex === '<' ? 'X' : m.sex],
    ['Date of expiry', human(m.expiryDate, true)],
    ['Document no.', m.documentNumber],
  ]
    .map(([k, v]) => `<div class="f"><span>${k}</span><b>${esc(v ?? '')}</b></div>`)
    .join('');
  const title = s.kind === 'passport' ? 'PASSPORT · PASSEPORT' : 'IDENTITY CARD';
  const front = `
    <div class="head">${title}<small>${esc(m.issuingCountry)}</small></div>
    <img class="face" src="${faceUrl}">
    <div class="fields">${fields}</div>
    ${s.kind === 'passport' ? `<div class="mrz">${mrzLines}</div>` : ''}`;
  const back = `<div class="head">${esc(m.issuingCountry)} · ADDRESS · ADRESSE</div>
    <div class="fields"><div class="f"><span>Issued</span><b>AUTHORITY OF ${esc(m.issuingCountry)}</b></div></div>
    <div class="mrz">${mrzLines}</div>`;
  const mrzBottom = s.kind === 'passport' ? 3 : 2;
  return `<!doctype html><html><head><style>
  @font-face { font-family: OCRB; src: url(${fontUrl}); }
  html, body { margin: 0; padding: 0; }
  body { width: ${size.w}mm; height: ${size.h}mm; }
  .doc { position: relative; width: ${size.w}mm; height: ${size.h}mm; overflow: hidden;
    background: linear-gradient(135deg, #f3eedb, #e4eef0 60%, #efe4ea); font-family: sans-serif; color: #223; }
  .doc::before { content: ''; position: absolute; inset: 0;
    background: repeating-radial-gradient(circle at 30% 40%, rgba(90,120,160,.08) 0 1px, transparent 1px 6px); }
  .head { position: absolute; left: 4mm; top: 3mm; right: 4mm; font-size: 4mm; font-weight: bold; letter-spacing: .4mm; color: #35507a; }
  .head small { float: right; font-size: 3.2mm; }
  .face { position: absolute; left: 4mm; top: 11mm; width: ${s.kind === 'passport' ? 32 : 24}mm; height: ${s.kind === 'passport' ? 40 : 30}mm; object-fit: cover; border-radius: 1mm; }
  .fields { position: absolute; left: ${s.kind === 'passport' ? 40 : 31}mm; top: 11mm; right: 3mm; }
  .f { font-size: ${s.kind === 'passport' ? 2.4 : 1.9}mm; margin-bottom: ${s.kind === 'passport' ? 1.2 : 0.5}mm; }
  .f span { display: block; color: #667; font-size: .8em; }
  .f b { font-size: 1.25em; }
  .mrz { position: absolute; left: ${s.kind === 'passport' ? 4.5 : 4.7}mm; bottom: ${mrzBottom}mm; font-family: OCRB; color: #111;
    font-size: 4.17mm; line-height: ${s.kind === 'passport' ? 5.5 : 4.6}mm; white-space: pre; background: rgba(255,255,255,.35); }
  .l { width: ${(s.kind === 'passport' ? 44 : 30) * 2.54}mm; letter-spacing: 0; }
  </style></head><body><div class="doc">${side === 'front' ? front : back}</div></body></html>`;
}
