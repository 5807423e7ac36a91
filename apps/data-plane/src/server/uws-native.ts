// Loads a native uWebSockets.js build for this platform and Node ABI, in order:
// - @btc-vision/uwebsockets.js, a republish of uWebSockets.js v20.57 for Node 20-25 (glibc >= 2.38).
//   Not a dependency of this package: the images add it, pinned and checksummed (infra/README.md).
// - the binary of @trufflesuite/uws-js-unofficial, for Node 16-20.
// Only binaries are ever loaded: the trufflesuite package's JavaScript fallback is not fit to serve
// (its getQuery() throws on Node 24 and its onWritable is unimplemented), so without a binary the data
// plane uses its own node:http adapter instead.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as UwsTypes from '@trufflesuite/uws-js-unofficial';
import type { HttpRequest, HttpResponse, HttpServerModule, TemplatedApp } from '../uws.js';
import { bodilessHead } from './bodiless-head.js';

const require = createRequire(import.meta.url);
const PACKAGE = '@trufflesuite/uws-js-unofficial';
const REPUBLISHED_OFFICIAL_BUILD = '@btc-vision/uwebsockets.js';

// Compile-time proof that the native API is a superset of the interface the routes are written against.
const nativeResponse = (res: UwsTypes.HttpResponse): HttpResponse => res;
const nativeRequest = (req: UwsTypes.HttpRequest): HttpRequest => req;
const nativeApp = (app: UwsTypes.TemplatedApp): TemplatedApp => app;
void [nativeResponse, nativeRequest, nativeApp];

export type NativeLoad =
  | { ok: true; server: HttpServerModule; version: string; packageName: string; packageVersion: string }
  | { ok: false; reason: string };

let cached: NativeLoad | undefined;

/** The native module as the data plane uses it: its apps answer HEAD without a body (see bodiless-head.ts). */
function nativeServer(uws: typeof UwsTypes): HttpServerModule {
  return {
    App: () => bodilessHead(uws.App()),
    us_socket_local_port: (listenSocket) => uws.us_socket_local_port(listenSocket as UwsTypes.us_listen_socket),
    us_listen_socket_close: (listenSocket) => uws.us_listen_socket_close(listenSocket as UwsTypes.us_listen_socket),
  };
}

/** The loader's own detail (e.g. `GLIBC_2.38 not found`) comes last in uWS.js's message. */
function lastLine(error: unknown): string {
  return (error as Error).message.split('\n').filter((line) => line.trim()).at(-1) ?? String(error);
}

function loadRepublishedOfficialBuild(): NativeLoad {
  try {
    const uws = require(REPUBLISHED_OFFICIAL_BUILD) as typeof UwsTypes;
    const manifest = require(path.join(path.dirname(require.resolve(REPUBLISHED_OFFICIAL_BUILD)), 'package.json')) as { version: string };
    const server = nativeServer(uws);
    return {
      ok: true, server, version: `${REPUBLISHED_OFFICIAL_BUILD}@${manifest.version}`, packageName: REPUBLISHED_OFFICIAL_BUILD, packageVersion: manifest.version,
    };
  } catch (error) {
    return { ok: false, reason: `${REPUBLISHED_OFFICIAL_BUILD}: ${lastLine(error)}` };
  }
}

export function loadNativeUws(): NativeLoad {
  if (cached) return cached;
  const official = loadRepublishedOfficialBuild();
  if (official.ok) return (cached = official);
  try {
    const manifest = require(`${PACKAGE}/package.json`) as { version: string };
    const packageDirectory = path.dirname(require.resolve(`${PACKAGE}/package.json`));
    const binary = path.join(packageDirectory, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
    const uws = require(binary) as typeof UwsTypes;
    const server = nativeServer(uws);
    cached = { ok: true, server, version: `${PACKAGE}@${manifest.version}`, packageName: PACKAGE, packageVersion: manifest.version };
  } catch (error) {
    // Not having the republished build installed is the normal case outside the images.
    const officialMissing = /Cannot find (module|package)/.test(official.reason);
    cached = { ok: false, reason: [officialMissing ? undefined : official.reason, `${PACKAGE}: ${lastLine(error)}`].filter(Boolean).join('; ') };
  }
  return cached;
}
