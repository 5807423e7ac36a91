// Loads uWebSockets.js: the native build where one exists for this platform and Node ABI, else the
// package's JavaScript fallback (same API, slower). Which one loaded is reported at start-up.
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
  reason?: string;
}

let loaded: LoadedUws | undefined;

export function loadUws(): LoadedUws {
  if (loaded) return loaded;
  const packageDirectory = path.dirname(path.dirname(require.resolve('@trufflesuite/uws-js-unofficial')));
  const binary = path.join(packageDirectory, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
  try {
    loaded = { uws: require(binary) as Uws, implementation: 'native' };
  } catch (error) {
    loaded = {
      uws: require(path.join(packageDirectory, 'dist', 'index.js')) as Uws,
      implementation: 'fallback',
      reason: (error as Error).message.split('\n')[0],
    };
  }
  return loaded;
}
