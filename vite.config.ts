import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The hosted page. The server serves dist/web on the same origin as the API.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: {
      '/client': 'http://127.0.0.1:3000',
    },
  },
});
