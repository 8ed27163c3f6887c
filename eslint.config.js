// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'http',
  'https',
  'net',
  'url',
  'child_process',
  'worker_threads',
  'stream',
  'zlib',
  'util',
  'events',
  'buffer',
];

/**
 * The layering is one-way: core ← server, core ← web, and the SDK stands alone.
 * Each rule below names what a layer may not reach, so a wrong import fails `npm run lint`.
 */
const restrict = (patterns) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: patterns.map((p) =>
        p.regex ? p : { group: [p.group].flat(), message: p.message },
      ),
    },
  ],
});

const corePatterns = [
  { group: nodeBuiltins, message: 'src/core runs in the browser too: no Node built-ins.' },
  {
    group: [
      'react',
      'react-dom',
      'react/*',
      'react-dom/*',
      'zustand',
      'i18next',
      'react-i18next',
      '@mediapipe/*',
    ],
    message: 'src/core is pure: no UI libraries.',
  },
  {
    group: ['**/server/**', '**/web/**', '**/sdk/**', 'fastify', 'better-sqlite3'],
    message: 'src/core may not import the server, the web page or the SDK.',
  },
];

const webPatterns = [
  { group: nodeBuiltins, message: 'The page runs in the browser: no Node built-ins.' },
  {
    group: ['**/server/**', 'fastify', 'better-sqlite3'],
    message: 'The page does not import the server; it talks to it over HTTP.',
  },
];

const serverRules = [
  {
    group: [
      '**/web/**',
      'react',
      'react-dom',
      'zustand',
      'i18next',
      'react-i18next',
      '@mediapipe/*',
    ],
    message: 'The server does not import the web page.',
  },
];

/**
 * The server side of a node kind (`src/server/nodes/<type>.ts`) imports only the core
 * (`src/core/**`), the step gateway (`src/server/flow/gateway.ts`), the modules of
 * `src/server/nodes/` and the helpers of its own kind below; packages (Fastify, TypeBox) are free.
 * Anything else of the server (the store, the HTTP layer, the app context, another kind's
 * helpers) it gets through the gateway or the dependencies it is given.
 */
const NODE_HELPERS = {
  conversation: ['conversation'],
  otp: ['otp'],
  enter_email: ['otp/codes'],
  data_validation: ['flow/dataValidation'],
  document_scan: ['documents'],
  liveness_detection: ['liveness'],
  face_scan: ['liveness'],
  face_compare: ['faces'],
  recognition: ['faces'],
};
const nodeImports = (helpers) => [
  ...serverRules,
  {
    regex: `^\\.\\./(?!\\.\\./core/|flow/gateway$${helpers.map((h) => `|${h}(/|$)`).join('')})`,
    message:
      'A node module imports only the core, the step gateway (../flow/gateway), the modules of ' +
      `src/server/nodes/ and its own kind's helpers${helpers.length ? ` (${helpers.map((h) => `../${h}`).join(', ')})` : ''}.`,
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'data/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'public/**',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      ...restrict(corePatterns),
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'navigator',
        'localStorage',
        'sessionStorage',
        'process',
        'Buffer',
        '__dirname',
        'require',
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: restrict(serverRules),
  },
  {
    files: ['src/server/nodes/*.ts'],
    ignores: ['src/server/nodes/*.test.ts'],
    rules: restrict(nodeImports([])),
  },
  ...Object.entries(NODE_HELPERS).map(([node, helpers]) => ({
    files: [`src/server/nodes/${node}.ts`],
    rules: restrict(nodeImports(helpers)),
  })),
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict(webPatterns),
    },
  },
  {
    // A node kind of the flow core (kinds/<type>.ts) stands on its own: the shared kind helpers,
    // the flow limits and (for document_scan) the document types the page shares, never another
    // kind or the KINDS list built from them.
    files: ['src/core/flow/kinds/*.ts'],
    ignores: ['src/core/flow/kinds/index.ts', 'src/core/flow/kinds/tables.ts', '**/*.test.ts'],
    rules: restrict([
      ...corePatterns,
      {
        regex:
          '^\\.\\./(?!limits$|\\.\\./documents/types$)|^\\.(/index)?$|^\\./(?!common$|kind$|otp$)',
        message:
          'A node kind imports only ./common, ./kind, ./otp, ../limits and the document types (../../documents/types): not another kind, nor KINDS.',
      },
    ]),
  },
  {
    // The page side of a node kind (nodes/<type>/) imports its own folder, ../kind, the shared page
    // helpers and types of the core; never another kind, nor the page's kind tables. The flow core
    // itself (its TypeBox schemas) is loaded after the first screen, so only its types come here.
    files: ['src/web/nodes/*/**/*.{ts,tsx}'],
    rules: {
      ...restrict([
        ...webPatterns,
        {
          regex: '^\\.\\./(?!kind$|\\.\\./)|^\\.\\.$',
          message:
            'A page kind imports its own folder, ../kind and the shared page helpers: not another kind, nor the kind tables.',
        },
      ]),
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/core/flow', '**/core/flow/**'],
              allowTypeImports: true,
              message:
                'The flow core comes after the first screen: a page kind imports only its types.',
            },
          ],
        },
      ],
    },
  },
  {
    // The client's types come from the API's schemas (src/core/api) by type-only imports, which
    // leave nothing behind at run time; no value of the service is imported.
    files: ['src/sdk/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/web/**'],
              message: 'The SDK is published on its own: it imports nothing of the service.',
            },
            {
              group: ['**/core/**'],
              allowTypeImports: true,
              message:
                'The SDK is published on its own: only types may come from the core (import type).',
            },
          ],
        },
      ],
    },
  },
);
