import { type Browser, chromium } from 'playwright-core';
import { ensureChromium } from './find-chromium.mjs';

/** Flags that give Phaser WebGL headless and keep Chromium off the (closed) network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium() as string, headless: true, args: CHROMIUM_ARGS });
}
