import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium; `.ci/run` installs it when missing. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether the browser tests run: always in CI (a missing Chromium then fails the launch, loudly),
 * elsewhere only when Chromium is installed, with a message saying why they were skipped.
 */
export function browserTestsEnabled(): boolean {
  if (existsSync(CHROMIUM_PATH) || process.env['CI']) return true;
  console.warn(`browser tests skipped: ${CHROMIUM_PATH} is missing (apt-get install chromium); they always run when CI is set`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS });
}

/** What a page did that a test should fail on. */
export interface PageWatch {
  /** Requests and websockets to anything but 127.0.0.1 (data: URLs stay in the page). */
  external: string[];
  /** Console errors and uncaught exceptions, CSP violations included. */
  errors: string[];
}

function isLocal(url: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return true;
  return new URL(url).hostname === '127.0.0.1';
}

export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { external: [], errors: [] };
  page.on('request', (request) => {
    if (!isLocal(request.url())) watch.external.push(request.url());
  });
  page.on('websocket', (socket) => {
    if (!isLocal(socket.url())) watch.external.push(socket.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') watch.errors.push(message.text());
  });
  page.on('pageerror', (error) => watch.errors.push(error.message));
  return watch;
}
