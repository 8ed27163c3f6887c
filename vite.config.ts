import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressDir } from './scripts/lib/precompress';

// What `npm run models` puts in public/ (git-ignored): the liveness screen's face detector loads
// them from our own origin, so a page built without them has a camera step that cannot start.
const FACE_DETECTOR_FILES = ['public/models/face_detector.tflite', 'public/mediapipe'];

function requireFaceDetectorFiles(): Plugin {
  return {
    name: 'idv-face-detector-files',
    buildStart() {
      const missing = FACE_DETECTOR_FILES.filter(
        (f) => !existsSync(fileURLToPath(new URL(f, import.meta.url))),
      );
      if (missing.length > 0) {
        this.error(
          `${missing.join(', ')} missing: run \`npm run models\` first (\`npm run build\` and \`npm run dev\` do)`,
        );
      }
    },
  };
}

// Brotli and gzip copies of the built files, once the bundle is written: the server sends them
// by `Accept-Encoding` (src/server/routes/page.ts) and never compresses per request.
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'idv-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      await precompressDir(fileURLToPath(new URL(outDir, new URL('./', import.meta.url))));
    },
  };
}

// The hosted page. The server serves dist/web on the same origin as the API.
export default defineConfig({
  plugins: [react(), requireFaceDetectorFiles(), precompress()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Maps stay out of the bundles' comments (the server never serves `.map`): an operator decoding a
    // stack trace reads them from dist/web.
    sourcemap: 'hidden',
  },
  server: {
    proxy: {
      '/client': 'http://127.0.0.1:3000',
    },
  },
});
