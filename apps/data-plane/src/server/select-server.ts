// Chooses the data plane's HTTP server at start-up (DATA_PLANE_SERVER): the native uWebSockets.js
// build where it loads (Node 20 on the platforms the package ships binaries for), else the node:http
// adapter. The package's JavaScript fallback is never used.
import type { HttpServerModule } from '../uws.js';
import { createNodeHttpServer, type NodeHttpAppOptions } from './node-http-app.js';
import { loadNativeUws } from './uws-native.js';

export const SERVER_CHOICES = ['auto', 'uws', 'node'] as const;
export type ServerChoice = (typeof SERVER_CHOICES)[number];
export type ServerImplementation = 'uws-native' | 'node-http';

export interface SelectedServer {
  server: HttpServerModule;
  implementation: ServerImplementation;
  /** For the start-up log line: the native package and version, or the adapter and why it was chosen. */
  description: string;
  /** What provides it (for the server-info metric): the native package and its version, or node:http and Node's. */
  build: { package: string; version: string };
}

export function selectServer(choice: ServerChoice, options: NodeHttpAppOptions = {}): SelectedServer {
  const adapter = (why: string): SelectedServer => ({
    server: createNodeHttpServer(options),
    implementation: 'node-http',
    description: `node:http adapter on Node ${process.version} (${why})`,
    build: { package: 'node:http', version: process.version },
  });
  if (choice === 'node') return adapter('DATA_PLANE_SERVER=node');
  const native = loadNativeUws();
  if (native.ok) {
    return {
      server: native.server, implementation: 'uws-native', description: `uWebSockets.js native build ${native.version}`,
      build: { package: native.packageName, version: native.packageVersion },
    };
  }
  if (choice === 'uws') {
    throw new Error(`DATA_PLANE_SERVER=uws, but the native uWebSockets.js build does not load on Node ${process.version} ${process.platform}-${process.arch}: ${native.reason}`);
  }
  return adapter(`no native uWebSockets.js build for Node ${process.version} ${process.platform}-${process.arch}`);
}
