/** Debian's fonts-ocr-b: the MRZ font the synthetic documents are drawn with. */
export const OCRB_FONT = '/usr/share/fonts/opentype/ocr-b/OCRB.otf';
/** The same package's Sharp cut: the second print rendering (the templates never see it). */
export const OCRB_SECOND_FONT = '/usr/share/fonts/opentype/ocr-b/OCRBS.otf';
