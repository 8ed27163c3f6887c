import type { Devices } from '../kind';

// The texts that name devices, for each set of devices asked for (locale keys).
const BOTH = {
  heading: 'permissions.heading',
  subheading: 'permissions.subheading',
  deniedBody: 'permissions.deniedBody',
  notFound: 'permissions.notFound',
  inUse: 'permissions.inUse',
  unsupported: 'permissions.unsupported',
} as const;
const CAMERA = {
  heading: 'permissions.headingCamera',
  subheading: 'permissions.subheadingCamera',
  deniedBody: 'permissions.deniedBodyOne',
  notFound: 'permissions.notFoundCamera',
  inUse: 'permissions.inUseCamera',
  unsupported: 'permissions.unsupportedCamera',
} as const;
const MICROPHONE = {
  heading: 'permissions.headingMicrophone',
  subheading: 'permissions.subheadingMicrophone',
  deniedBody: 'permissions.deniedBodyOne',
  notFound: 'permissions.notFoundMicrophone',
  inUse: 'permissions.inUseMicrophone',
  unsupported: 'permissions.unsupportedMicrophone',
} as const;

type Table = typeof BOTH | typeof CAMERA | typeof MICROPHONE;

/** The permissions page's texts that name devices, as locale keys. */
export type PermissionsTexts = { [K in keyof Table]: Table[K] | 'permissions.voiceOnlyBody' };

/**
 * The locale keys that name exactly the devices asked for: a camera-only request never mentions
 * a microphone, a microphone-only one never a camera. `voiceOnly` is the page in front of a
 * conversation, which asks for the microphone so that the user may answer out loud.
 *
 * @example
 * permissionsTexts({ camera: true, microphone: false }, false).heading; // 'permissions.headingCamera'
 */
export function permissionsTexts(devices: Devices, voiceOnly: boolean): PermissionsTexts {
  const table: Table =
    devices.camera === devices.microphone ? BOTH : devices.camera ? CAMERA : MICROPHONE;
  return voiceOnly ? { ...table, subheading: 'permissions.voiceOnlyBody' } : table;
}
