import { chromium, type Browser } from '@playwright/test';
import { FAKE_MEDIA_LAUNCH } from './idvServer';

/**
 * A Chromium without any camera or microphone: the hosted-page specs' flags minus the fake media
 * devices, so `getUserMedia` finds nothing (a desktop without a camera).
 *
 * @example
 * const browser = await launchWithoutCamera();
 * const page = await (await browser.newContext()).newPage();
 */
export function launchWithoutCamera(): Promise<Browser> {
  return chromium.launch({
    executablePath: FAKE_MEDIA_LAUNCH.executablePath,
    args: FAKE_MEDIA_LAUNCH.args.filter((a) => !a.startsWith('--use-fake-device')),
  });
}
