// Every provider the registry knows. Adding one: a folder exporting a ProviderModule, and one line here
// (see ADDING-A-PROVIDER.md). Settings, the data plane's environment, the conformance suite and the combined
// fake all follow this list.

import { azureProvider } from './azure/index.js';
import { cartesiaProvider } from './cartesia/index.js';
import { deepgramProvider } from './deepgram/index.js';
import { elevenLabsProvider } from './elevenlabs/index.js';
import { fishProvider } from './fish/index.js';
import { groqProvider } from './groq/index.js';
import { googleProvider } from './google/index.js';
import { humeProvider } from './hume/index.js';
import { inworldProvider } from './inworld/index.js';
import { lmntProvider } from './lmnt/index.js';
import { localProvider } from './local/index.js';
import { neuphonicProvider } from './neuphonic/index.js';
import { miniMaxProvider } from './minimax/index.js';
import { murfProvider } from './murf/index.js';
import { openAIProvider } from './openai/index.js';
import { pollyProvider } from './polly/index.js';
import { resembleProvider } from './resemble/index.js';
import { rimeProvider } from './rime/index.js';
import { smallestProvider } from './smallest/index.js';
import { speechifyProvider } from './speechify/index.js';
import type { ProviderModule } from './provider-module.js';

// `never`: the list holds modules with different settings types; each one reads only its own key.
export const providerModules: readonly ProviderModule<never>[] = [
  openAIProvider,
  elevenLabsProvider,
  cartesiaProvider,
  localProvider,
  lmntProvider,
  humeProvider,
  rimeProvider,
  fishProvider,
  deepgramProvider,
  pollyProvider,
  speechifyProvider,
  resembleProvider,
  neuphonicProvider,
  smallestProvider,
  groqProvider,
  azureProvider,
  googleProvider,
  murfProvider,
  inworldProvider,
  miniMaxProvider,
];
