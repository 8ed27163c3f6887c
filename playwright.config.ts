import { defineConfig } from '@playwright/test';
import { chromiumExecutable } from './scripts/lib/chromium';

const executablePath = chromiumExecutable();
const port = Number(process.env.E2E_PORT ?? 4317);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Specs wait for states, never for fixed times; these bounds only say when a wait has failed,
  // so they are set for a loaded machine (load 7 on 2 cores), where a spec gets slower, not red.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: process.env.CI ? 'list' : 'line',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // The real service (`idv serve`) over a fresh data folder: the API and the built page on one
  // origin. Specs that need keys or their own settings start their own (e2e/support/idvServer.ts).
  webServer: {
    command: 'rm -rf .tmp/e2e-data && node bin/idv.mjs serve',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: '.tmp/e2e-data',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
    },
    url: `http://127.0.0.1:${port}/verify`,
    reuseExistingServer: false,
    timeout: 120_000,
  },
});
