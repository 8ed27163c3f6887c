import type { AvatarRecord } from '../store/types';

/**
 * The avatars a fresh store starts with. Their images are drawn by hand in `public/avatars/`
 * and served from this service's origin. The list lives in the store afterwards, so an operator
 * can change it (`settings.avatars` fires then).
 */
export const DEFAULT_AVATARS: readonly AvatarRecord[] = [
  {
    id: 'ava_nova',
    name: 'Nova',
    gender: 'female',
    imageUrl: '/avatars/nova.svg',
    createdAt: Date.UTC(2025, 0, 15, 9, 0, 0),
  },
  {
    id: 'ava_atlas',
    name: 'Atlas',
    gender: 'male',
    imageUrl: '/avatars/atlas.svg',
    createdAt: Date.UTC(2025, 0, 15, 9, 5, 0),
  },
  {
    id: 'ava_mira',
    name: 'Mira',
    gender: 'female',
    imageUrl: '/avatars/mira.svg',
    createdAt: Date.UTC(2025, 2, 3, 14, 30, 0),
  },
  {
    id: 'ava_orbit',
    name: 'Orbit',
    gender: 'unknown',
    imageUrl: '/avatars/orbit.svg',
    createdAt: Date.UTC(2025, 5, 20, 11, 0, 0),
  },
];
