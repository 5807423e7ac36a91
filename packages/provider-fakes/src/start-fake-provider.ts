// Entry points: one fake provider per server, or all three on one port (their paths do not overlap).

import { cartesiaFake } from './providers/cartesia-fake.js';
import { elevenLabsFake } from './providers/elevenlabs-fake.js';
import { openAIFake } from './providers/openai-fake.js';
import { startFakeServer } from './server/fake-server.js';
import type { FakeProviderHandler } from './server/fake-handler.js';
import type { FakeProviderKind, FakeProviderOptions, FakeProviderServer } from './types.js';

const HANDLERS: Record<FakeProviderKind, FakeProviderHandler> = {
  openai: openAIFake,
  elevenlabs: elevenLabsFake,
  cartesia: cartesiaFake,
};

export const FAKE_PROVIDER_KINDS: readonly FakeProviderKind[] = ['openai', 'elevenlabs', 'cartesia'];

export function startFakeProvider(kind: FakeProviderKind, options?: FakeProviderOptions): Promise<FakeProviderServer> {
  return startFakeServer([HANDLERS[kind]], options);
}

/** All three providers behind one base URL and one API key; behaviours apply to all of them. */
/** The combined fake: one origin, a base URL per provider. */
export type CombinedFakeProviderServer = Omit<FakeProviderServer, 'baseUrl'>;

/**
 * One server for every provider. It has no single `baseUrl` (each provider's SDK convention differs):
 * use `baseUrlFor(kind)`, so a test cannot hand OpenAI's settings a base without its version path.
 */
export function startFakeProviders(options?: FakeProviderOptions): Promise<CombinedFakeProviderServer> {
  return startFakeServer(FAKE_PROVIDER_KINDS.map((kind) => HANDLERS[kind]), options);
}
