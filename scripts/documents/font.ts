/** Debian's fonts-ocr-b: the MRZ font the synthetic documents are drawn with. */
export const OCRB_FONT = '/usr/share/fonts/opentype/ocr-b/OCRB.otf';
