import { Type, type Static } from '@sinclair/typebox';

/**
 * The 41 booleans of the original product's `device`, named as `express-useragent` names them
 * (compat.md §4.9).
 */
export const DEVICE_FLAGS = [
  'isMobile',
  'isMobileNative',
  'isTablet',
  'isiPad',
  'isiPod',
  'isiPhone',
  'isAndroid',
  'isBlackberry',
  'isOpera',
  'isIE',
  'isEdge',
  'isIECompatibilityMode',
  'isSafari',
  'isFirefox',
  'isWebkit',
  'isChrome',
  'isKonqueror',
  'isOmniWeb',
  'isSeaMonkey',
  'isFlock',
  'isAmaya',
  'isEpiphany',
  'isDesktop',
  'isWindows',
  'isWindowsPhone',
  'isLinux',
  'isLinux64',
  'isMac',
  'isChromeOS',
  'isBada',
  'isSamsung',
  'isRaspberry',
  'isBot',
  'isCurl',
  'isAndroidTablet',
  'isWinJs',
  'isKindleFire',
  'isSilk',
  'isCaptive',
  'isSmartTV',
  'silkAccelerated',
] as const;
export type DeviceFlag = (typeof DEVICE_FLAGS)[number];

export const DeviceSchema = Type.Object(
  {
    ...(Object.fromEntries(DEVICE_FLAGS.map((f) => [f, Type.Boolean()])) as Record<
      DeviceFlag,
      ReturnType<typeof Type.Boolean>
    >),
    browser: Type.String({ description: 'Browser name; `unknown` when not recognised.' }),
    version: Type.String({ description: 'Browser version; `unknown` when not recognised.' }),
    os: Type.String({ description: 'Operating system, often with its version.' }),
    platform: Type.String({ description: 'Device platform, e.g. `iPhone`, `Microsoft Windows`.' }),
    source: Type.String({ description: 'The User-Agent header as received.' }),
    geoIp: Type.Record(Type.String(), Type.Unknown(), { description: 'Always `{}`.' }),
  },
  {
    $id: 'Device',
    description:
      'The User-Agent of the first opening, parsed by express-useragent (2025-09-01: ' +
      '`{ browser, browserVersion, os, osVersion, platform, isMobile }`).',
  },
);
export type Device = Static<typeof DeviceSchema>;
