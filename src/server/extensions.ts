import { existsSync } from 'node:fs';
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { Clock } from './clock';
import type { SessionStore } from './store/types';

/** What an extension's routes and workers get. */
export interface ExtensionContext {
  store: SessionStore;
  /** The store's SQLite file, where a feature keeps its own tables. */
  db: Database;
  clock: Clock;
  dataDir: string;
  publicUrl: string;
  env: Record<string, string | undefined>;
  log: (line: string) => void;
}

/**
 * A feature that plugs into `idv serve` without the core knowing it: extra routes and a
 * background worker (the webhook dispatcher is one). Its migrations go through
 * `registerMigrations`, its commands through `registerCommand`, both at module load.
 */
export interface ServerExtension {
  name: string;
  /** Adds routes to the app before it is ready. */
  routes?(app: FastifyInstance, ctx: ExtensionContext): void | Promise<void>;
  /** Starts background work in `idv serve`; returns how to stop it. */
  start?(ctx: ExtensionContext): Promise<() => Promise<void>> | (() => Promise<void>);
}

const extensions: ServerExtension[] = [];

/**
 * Registers an extension (call it at module load of your feature's `index.ts`).
 *
 * @example
 * registerExtension({ name: 'webhooks', start: (ctx) => startDispatcher(ctx) });
 */
export function registerExtension(ext: ServerExtension): void {
  if (!extensions.some((e) => e.name === ext.name)) extensions.push(ext);
}

/**
 * The extensions registered so far.
 *
 * @example
 * registeredExtensions().map((e) => e.name); // ['webhooks']
 */
export function registeredExtensions(): readonly ServerExtension[] {
  return extensions;
}

/**
 * Feature folders under `src/server/` loaded when they have an `index.ts`; each registers its
 * migrations, commands and extension when imported.
 */
export const OPTIONAL_FEATURES = ['webhooks'] as const;

/**
 * Imports every optional feature present, so that their registrations happen before the store
 * opens and the command line dispatches.
 *
 * @example
 * await loadFeatures();
 */
export async function loadFeatures(): Promise<string[]> {
  const loaded: string[] = [];
  for (const name of OPTIONAL_FEATURES) {
    const entry = new URL(`./${name}/index.ts`, import.meta.url);
    if (!existsSync(entry)) continue;
    await import(entry.href);
    loaded.push(name);
  }
  return loaded;
}
