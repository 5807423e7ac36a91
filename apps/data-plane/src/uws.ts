// Loads uWebSockets.js: a native build where one exists for this platform and Node ABI, else the
// JavaScript fallback of @trufflesuite/uws-js-unofficial (same API, slower). Which one loaded is
// reported at start-up. Native builds, in order:
// - @btc-vision/uwebsockets.js, a republish of uWebSockets.js v20.57 for Node 20-25 (glibc >= 2.38).
//   Not a dependency of this package: the images add it, pinned and checksummed (infra/README.md).
// - @trufflesuite/uws-js-unofficial's own build for Node 16-20.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as UwsTypes from '@trufflesuite/uws-js-unofficial';

export type Uws = typeof UwsTypes;
export type HttpResponse = UwsTypes.HttpResponse;
export type HttpRequest = UwsTypes.HttpRequest;
export type TemplatedApp = UwsTypes.TemplatedApp;
export type ListenSocket = UwsTypes.us_listen_socket;

const require = createRequire(import.meta.url);

export interface LoadedUws {
  uws: Uws;
  implementation: 'native' | 'fallback';
  /** The package and version the native build came from, e.g. `@btc-vision/uwebsockets.js@20.57.0`. */
  build?: string;
  /** Why a preferred build did not load, when one did not. */
  reason?: string;
}

const OFFICIAL_BUILD = '@btc-vision/uwebsockets.js';
const FALLBACK_PACKAGE = '@trufflesuite/uws-js-unofficial';

let loaded: LoadedUws | undefined;

/** The loader's own detail (e.g. `GLIBC_2.38 not found`) comes last in uWS.js's message. */
function lastLine(error: unknown): string {
  return (error as Error).message.split('\n').filter((line) => line.trim()).at(-1) ?? String(error);
}

/** Read beside the package's entry point: not every package exports its package.json. */
function packageVersion(name: string): string {
  let directory = path.dirname(require.resolve(name));
  while (!fs.existsSync(path.join(directory, 'package.json')) && directory !== path.dirname(directory)) directory = path.dirname(directory);
  return (JSON.parse(fs.readFileSync(path.join(directory, 'package.json'), 'utf8')) as { version: string }).version;
}

export function loadUws(): LoadedUws {
  if (loaded) return loaded;
  const reasons: string[] = [];
  try {
    loaded = { uws: require(OFFICIAL_BUILD) as Uws, implementation: 'native', build: `${OFFICIAL_BUILD}@${packageVersion(OFFICIAL_BUILD)}` };
    return loaded;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Not installed is the normal case outside the images; anything else (a glibc too old) is worth saying.
    if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') reasons.push(`${OFFICIAL_BUILD}: ${lastLine(error)}`);
  }
  const packageDirectory = path.dirname(path.dirname(require.resolve(FALLBACK_PACKAGE)));
  const binary = path.join(packageDirectory, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
  try {
    loaded = { uws: require(binary) as Uws, implementation: 'native', build: `${FALLBACK_PACKAGE}@${packageVersion(FALLBACK_PACKAGE)}`, reason: reasons.join('; ') || undefined };
  } catch (error) {
    reasons.push(`${FALLBACK_PACKAGE}: ${lastLine(error)}`);
    loaded = { uws: require(path.join(packageDirectory, 'dist', 'index.js')) as Uws, implementation: 'fallback', reason: reasons.join('; ') };
  }
  return loaded;
}
