/**
 * Document scan on the server (docs/documents.md): find and straighten the document, read its
 * machine-readable zone (OCR-B glyphs, tesseract.js as fallback) or a licence's PDF417, check it
 * for forgery and consistency, keep its face.
 */
export { documentRoutes } from './routes';
export { createDocumentReader, straighten, type DocumentReader, type ReadOutcome } from './reader';
export {
  createDocuments,
  type DocumentAnswer,
  type DocumentAttempt,
  type Documents,
} from './service';
export { createMrzOcr, createTextOcr, tesseractLangPath, type MrzOcr } from './ocr';
export { scanSide, type ScanRequest, type ScanResult, type ScanResultKind } from './scan';
export { planFor } from './plan';
