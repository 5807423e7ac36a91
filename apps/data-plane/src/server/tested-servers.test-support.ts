// Which servers a data-plane suite runs against: DATA_PLANE_SERVER when set (CI forces 'node' on
// Node 20 too), else the node:http adapter and, where it loads, the native uWS build.
import { serverChoiceSchema } from '../environment.js';
import type { ServerChoice } from './select-server.js';
import { loadNativeUws } from './uws-native.js';

export function testedServers(): Array<Exclude<ServerChoice, 'auto'>> {
  const forced = serverChoiceSchema.parse(process.env.DATA_PLANE_SERVER);
  if (forced !== 'auto') return [forced];
  return loadNativeUws().ok ? ['node', 'uws'] : ['node'];
}
