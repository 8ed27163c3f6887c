/**
 * Importing this module adds the face tables to every store opened afterwards (`createFaces` also
 * applies them to a store opened before).
 */
import { registerMigrations } from '../store/migrations';
import { FACE_MIGRATIONS } from './face-store';

registerMigrations(...FACE_MIGRATIONS);
