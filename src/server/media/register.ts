/**
 * Importing this module adds the `media` table to every store opened afterwards
 * (`createMediaService` also applies it to a store opened before).
 */
import { registerMigrations } from '../store/migrations';
import { MEDIA_MIGRATIONS } from './migrations';

registerMigrations(...MEDIA_MIGRATIONS);
