/**
 * The HTML of a document side as Chromium draws it: a TD3 passport data page (125 × 88 mm), the
 * two sides of a TD1 ID card or residence permit (85.6 × 54 mm), a TD2 card (105 × 74 mm, zone on
 * the front), an MRV-A visa on a passport page, an MRV-B visa sticker (105 × 74 mm), the two
 * sides of a driving licence (ID-1, AAMVA barcode on the back). Zones in OCR-B at 10 characters
 * an inch; the portrait on the left and the printed fields to its right, as ICAO 9303 and the
 * AAMVA card design standard lay them out.
 */
import type { Kind, Printed, Specimen } from './specimens';

/** Pixels a millimetre in the flat render. */
export const PX_PER_MM = 10;

export const SIZES_MM: Record<Kind, { w: number; h: number }> = {
  passport: { w: 125, h: 88 },
  id: { w: 85.6, h: 54 },
  permit: { w: 85.6, h: 54 },
  td2: { w: 105, h: 74 },
  'visa-a': { w: 125, h: 88 },
  'visa-b': { w: 105, h: 74 },
  dl: { w: 85.6, h: 54 },
};

/** What the page needs besides the specimen: fonts, the face, the barcode picture. */
export interface Assets {
  /** OCR-B (the first rendering) and its Sharp cut (the second). */
  fontUrl: string;
  secondFontUrl: string;
  faceUrl: string;
  /** What takes the face's place on a forgery without one. */
  noFaceUrl: string;
  /** The licence's PDF417 (PNG), for its back. */
  barcodeUrl?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A date as the document prints it: `DD.MM.YYYY`, US licences `MM/DD/YYYY`, Canadian `YYYY/MM/DD`. */
function printedDate(iso: string, style: 'icao' | 'us' | 'ca'): string {
  const [y, m, d] = iso.split('-') as [string, string, string];
  if (style === 'us') return `${m}/${d}/${y}`;
  if (style === 'ca') return `${y}/${m}/${d}`;
  return `${d}.${m}.${y}`;
}

const TITLES: Record<Kind, string> = {
  passport: 'PASSPORT · PASSEPORT',
  id: 'IDENTITY CARD',
  td2: 'IDENTITY CARD · CARTE D IDENTITE',
  permit: 'RESIDENCE PERMIT',
  'visa-a': 'VISA',
  'visa-b': 'VISA',
  dl: 'DRIVER LICENSE',
};

function fieldsHtml(p: Printed, kind: Kind): string {
  const rows: [string, string][] = [
    ['Surname / Nom', p.lastName],
    ['Given names / Prénoms', p.firstName],
    ['Nationality', p.nationality],
    ['Date of birth', printedDate(p.dateOfBirth, 'icao')],
    ['Sex', p.sex],
    ['Date of expiry', printedDate(p.expiryDate, 'icao')],
    [kind.startsWith('visa') ? 'Visa no.' : 'Document no.', p.documentNumber],
  ];
  return rows.map(([k, v]) => `<div class="f"><span>${k}</span><b>${esc(v)}</b></div>`).join('');
}

function licenceFrontHtml(s: Specimen, a: Assets): string {
  const p = s.printed;
  const style = p.issuingCountry === 'CAN' ? 'ca' : 'us';
  const l = s.licence!;
  const j = s.aamva!.jurisdiction;
  return `
    <div class="head">${esc(j)} ${TITLES.dl}<small>${esc(p.issuingCountry)}</small></div>
    ${faceHtml(s, a)}
    <div class="fields dl">
      <div class="f"><span>DL</span><b>${esc(p.documentNumber)}</b></div>
      <div class="f"><span>LN</span><b>${esc(p.lastName)}</b></div>
      <div class="f"><span>FN</span><b>${esc(p.firstName)}</b></div>
      <div class="f small">${esc(l.address[0]!)}<br>${esc(l.address[1]!)}</div>
      <div class="f"><span>DOB</span><b>${printedDate(p.dateOfBirth, style)}</b></div>
      <div class="f row"><span>EXP</span><b>${printedDate(p.expiryDate, style)}</b>
        <span>CLASS</span><b>${esc(l.licenceClass)}</b><span>SEX</span><b>${p.sex}</b></div>
      <div class="f row"><span>ISS</span><b>${printedDate(p.issueDate, style)}</b></div>
    </div>`;
}

function faceHtml(s: Specimen, a: Assets): string {
  const url = s.variant === 'no_face' ? a.noFaceUrl : a.faceUrl;
  return `<img class="face" src="${url}">`;
}

function stampHtml(s: Specimen): string {
  if (s.variant !== 'specimen' && s.variant !== 'void') return '';
  return `<div class="stamp">${s.variant === 'specimen' ? 'SPECIMEN' : 'VOID'}</div>`;
}

/** The side's inner HTML: `front` carries the portrait and printed fields, `back` the rest. */
function sideHtml(s: Specimen, side: 'front' | 'back', a: Assets): string {
  const mrz = `<div class="mrz">${s.lines.map((l) => `<div class="l">${esc(l)}</div>`).join('')}</div>`;
  const country = esc(s.printed.issuingCountry);
  if (s.kind === 'dl') {
    if (side === 'front') return licenceFrontHtml(s, a);
    return `<div class="head small">${esc(s.aamva!.jurisdiction)} · ${country} · SEE REVERSE FOR RESTRICTIONS</div>
      <img class="barcode" src="${a.barcodeUrl}">
      <div class="foot">ORGAN DONOR · VETERAN · ${esc(s.printed.documentNumber)}</div>`;
  }
  const zoneOnFront = s.kind !== 'id' && s.kind !== 'permit';
  if (side === 'back') {
    return `<div class="head">${country} · ADDRESS · ADRESSE</div>
      <div class="fields"><div class="f"><span>Issued</span><b>AUTHORITY OF ${country}</b></div></div>
      ${mrz}`;
  }
  const sticker = s.kind === 'visa-a' ? '<div class="sticker"></div>' : '';
  return `${sticker}
    <div class="head">${TITLES[s.kind]}<small>${country}</small></div>
    ${faceHtml(s, a)}
    <div class="fields">${fieldsHtml(s.printed, s.kind)}</div>
    ${zoneOnFront ? mrz : ''}`;
}

/** Layout numbers per size class: the portrait, the fields, the zone. */
function geometry(kind: Kind) {
  const big = kind === 'passport' || kind === 'visa-a';
  const mid = kind === 'td2' || kind === 'visa-b';
  const lineChars = kind === 'passport' || kind === 'visa-a' ? 44 : mid ? 36 : 30;
  return {
    face: big ? { w: 32, h: 40 } : mid ? { w: 28, h: 35 } : { w: 24, h: 30 },
    fieldsLeft: big ? 40 : mid ? 35 : 31,
    fieldSize: big ? 2.4 : mid ? 2.2 : 1.9,
    fieldGap: big ? 1.2 : mid ? 0.8 : 0.5,
    mrzLeft: big ? 4.5 : mid ? 6 : 4.7,
    mrzBottom: big || mid ? 3 : 2,
    lineHeight: big || mid ? 5.5 : 4.6,
    lineChars,
  };
}

/**
 * A page for one side of a specimen.
 *
 * @example
 * const html = cardHtml(specimen(1, 'passport', 'valid', 'clean'), 'front', assets);
 */
export function cardHtml(s: Specimen, side: 'front' | 'back', a: Assets): string {
  const size = SIZES_MM[s.kind];
  const g = geometry(s.kind);
  const second = s.print === 'second';
  // Over a passport's fields; in the free lower part of a card.
  const card = size.w < 90;
  const stamp = card
    ? { size: 9, left: g.fieldsLeft, top: size.h * 0.62 }
    : { size: size.h * 0.16, left: g.fieldsLeft - 8, top: size.h * 0.3 };
  // The second rendering: OCR-B's other cut with a heavier stroke (render.ts adds the rest).
  const mrzFont = second
    ? `font-family: OCRB2; -webkit-text-stroke: 0.09mm #111;`
    : `font-family: OCRB;`;
  return `<!doctype html><html><head><style>
  @font-face { font-family: OCRB; src: url(${a.fontUrl}); }
  @font-face { font-family: OCRB2; src: url(${a.secondFontUrl}); }
  html, body { margin: 0; padding: 0; }
  body { width: ${size.w}mm; height: ${size.h}mm; }
  .doc { position: relative; width: ${size.w}mm; height: ${size.h}mm; overflow: hidden;
    background: linear-gradient(135deg, #f3eedb, #e4eef0 60%, #efe4ea); font-family: sans-serif; color: #223; }
  .doc::before { content: ''; position: absolute; inset: 0;
    background: repeating-radial-gradient(circle at 30% 40%, rgba(90,120,160,.08) 0 1px, transparent 1px 6px); }
  .sticker { position: absolute; left: 2.5mm; top: 5mm; width: 120mm; height: 82mm; border-radius: 2mm;
    background: linear-gradient(160deg, #e6f0e0, #f4e7d4 70%); box-shadow: 0 0 0 .3mm #c9b; }
  .head { position: absolute; left: 4mm; top: 3mm; right: 4mm; font-size: 4mm; font-weight: bold; letter-spacing: .4mm; color: #35507a; }
  .head.small { font-size: 2.4mm; }
  .head small { float: right; font-size: 3.2mm; }
  .face { position: absolute; left: 4mm; top: 11mm; width: ${g.face.w}mm; height: ${g.face.h}mm; object-fit: cover; border-radius: 1mm; }
  .fields { position: absolute; left: ${g.fieldsLeft}mm; top: 11mm; right: 3mm; }
  .f { font-size: ${g.fieldSize}mm; margin-bottom: ${g.fieldGap}mm; }
  .f span { display: block; color: #667; font-size: .8em; }
  .f b { font-size: 1.25em; }
  .dl { top: 9mm; }
  .dl .f { margin-bottom: .2mm; }
  .dl .f span { display: inline; margin-right: .8mm; }
  .dl .f.row b { margin-right: 2mm; }
  .dl .f.small { font-size: 1.7mm; font-weight: bold; }
  .barcode { position: absolute; left: 6mm; right: 6mm; top: 9mm; width: 73.6mm; height: 30mm; image-rendering: pixelated; }
  .foot { position: absolute; left: 6mm; bottom: 4mm; font-size: 2mm; color: #556; }
  .stamp { position: absolute; font: bold ${stamp.size}mm sans-serif; left: ${stamp.left}mm; top: ${stamp.top}mm;
    color: rgba(205, 20, 20, .85); letter-spacing: 1mm; transform: rotate(-4deg); transform-origin: left top; }
  .mrz { position: absolute; left: ${g.mrzLeft}mm; bottom: ${g.mrzBottom}mm; ${mrzFont} color: #111;
    font-size: 4.17mm; line-height: ${g.lineHeight}mm; white-space: pre; background: rgba(255,255,255,.35); }
  .l { width: ${g.lineChars * 2.54}mm; letter-spacing: 0; }
  </style></head><body><div class="doc">${sideHtml(s, side, a)}${side === 'front' ? stampHtml(s) : ''}</div></body></html>`;
}
