/**
 * Importing this module adds the analyses tables to every store opened afterwards
 * (`createAnalyses` also applies them to a store opened before).
 */
import '../liveness/register';
import { registerMigrations } from '../store/migrations';
import { ANALYSES_MIGRATIONS } from './migrations';

registerMigrations(...ANALYSES_MIGRATIONS);
