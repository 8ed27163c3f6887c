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
    { patterns: patterns.map((p) => ({ group: [p.group].flat(), message: p.message })) },
  ],
});

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
      ...restrict([
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
      ]),
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
    rules: restrict([
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
    ]),
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict([
        { group: nodeBuiltins, message: 'The page runs in the browser: no Node built-ins.' },
        {
          group: ['**/server/**', 'fastify', 'better-sqlite3'],
          message: 'The page does not import the server; it talks to it over HTTP.',
        },
      ]),
    },
  },
  {
    files: ['src/sdk/**/*.ts'],
    rules: restrict([
      {
        group: ['**/server/**', '**/web/**', '**/core/**'],
        message: 'The SDK is published on its own: it imports nothing of the service.',
      },
    ]),
  },
);
