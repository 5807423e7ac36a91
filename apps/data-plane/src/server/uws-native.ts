// Loads the native uWebSockets.js build of @trufflesuite/uws-js-unofficial for this platform and Node
// ABI. Only the binary is ever loaded: the package's JavaScript fallback is not fit to serve (its
// getQuery() throws on Node 24 and its onWritable is unimplemented), so without a binary the data
// plane uses its own node:http adapter instead.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as UwsTypes from '@trufflesuite/uws-js-unofficial';
import type { HttpRequest, HttpResponse, HttpServerModule, TemplatedApp } from '../uws.js';

const require = createRequire(import.meta.url);
const PACKAGE = '@trufflesuite/uws-js-unofficial';

// Compile-time proof that the native API is a superset of the interface the routes are written against.
const nativeResponse = (res: UwsTypes.HttpResponse): HttpResponse => res;
const nativeRequest = (req: UwsTypes.HttpRequest): HttpRequest => req;
const nativeApp = (app: UwsTypes.TemplatedApp): TemplatedApp => app;
void [nativeResponse, nativeRequest, nativeApp];

export type NativeLoad = { ok: true; server: HttpServerModule; version: string } | { ok: false; reason: string };

let cached: NativeLoad | undefined;

export function loadNativeUws(): NativeLoad {
  if (cached) return cached;
  try {
    const manifest = require(`${PACKAGE}/package.json`) as { version: string };
    const packageDirectory = path.dirname(require.resolve(`${PACKAGE}/package.json`));
    const binary = path.join(packageDirectory, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
    const uws = require(binary) as typeof UwsTypes;
    const server: HttpServerModule = uws;
    cached = { ok: true, server, version: `${PACKAGE}@${manifest.version}` };
  } catch (error) {
    cached = { ok: false, reason: (error as Error).message.split('\n')[0] ?? 'unknown error' };
  }
  return cached;
}
