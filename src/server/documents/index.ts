/**
 * Document scan on the server (docs/documents.md): find and straighten the document, read its
 * machine-readable zone (OCR-B glyphs, tesseract.js as fallback), check it, keep its face.
 */
export { documentRoutes } from './routes';
export { createDocumentReader, straighten, type DocumentReader, type ReadOutcome } from './reader';
export {
  createDocuments,
  type DocumentAnswer,
  type DocumentAttempt,
  type Documents,
} from './service';
export { createMrzOcr, tesseractLangPath, type MrzOcr } from './ocr';
