// Entry points: one provider's double per server, or every listed provider's double on one port (their paths
// do not overlap). Doubles are found through the provider list, so a new provider folder is picked up here
// without touching this file.

import { providerModules } from '../provider-list.js';
import type { FakeProviderHandler } from './server/fake-handler.js';
import { startFakeServer } from './server/fake-server.js';
import type { FakeProviderKind, FakeProviderOptions, FakeProviderServer } from './types.js';

/** Ids of every listed provider that has an HTTP double. */
export const FAKE_PROVIDER_KINDS: readonly FakeProviderKind[] = providerModules.filter((module) => module.testKit).map((module) => module.id);

async function doubleOf(kind: FakeProviderKind): Promise<FakeProviderHandler> {
  const module = providerModules.find((candidate) => candidate.id === kind);
  if (!module?.testKit) throw new Error(`no provider double for ${kind}; known: ${FAKE_PROVIDER_KINDS.join(', ')}`);
  return (await module.testKit()).double;
}

export async function startFakeProvider(kind: FakeProviderKind, options?: FakeProviderOptions): Promise<FakeProviderServer> {
  return startFakeServer([await doubleOf(kind)], options);
}

/** The combined fake: one origin, a base URL per provider. */
export type CombinedFakeProviderServer = Omit<FakeProviderServer, 'baseUrl'>;

/**
 * One server for every provider. It has no single `baseUrl` (each provider's SDK convention differs):
 * use `baseUrlFor(kind)`, so a test cannot hand OpenAI's settings a base without its version path.
 */
export async function startFakeProviders(options?: FakeProviderOptions): Promise<CombinedFakeProviderServer> {
  return startFakeServer(await Promise.all(FAKE_PROVIDER_KINDS.map(doubleOf)), options);
}
