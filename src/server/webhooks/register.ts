/**
 * Importing this module adds the webhook tables to every store opened afterwards. The server and
 * the CLI import it (through ./index) before they open the store.
 */
import { registerMigrations } from '../store/migrations';
import { WEBHOOK_MIGRATIONS } from './sqlite-store';

registerMigrations(...WEBHOOK_MIGRATIONS);
