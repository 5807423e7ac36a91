// Public surface of @voice-router/provider-fakes: faithful local stand-ins for upstream speech APIs.

export { startFakeProvider, startFakeProviders, FAKE_PROVIDER_KINDS, type CombinedFakeProviderServer } from './start-fake-provider.js';
export { ELEVENLABS_FAKE_VOICES } from './providers/elevenlabs-fake.js';
export { CARTESIA_FAKE_VOICES } from './providers/cartesia-fake.js';
export { ELEVENLABS_CLONED_VOICE_ID } from './providers/elevenlabs-voices.js';
export { CARTESIA_CLONED_VOICE_ID } from './providers/cartesia-voices.js';
export { readMp3FrameHeader, mp3FrameLengths, type Mp3FrameHeader } from './audio/mp3-frames.js';
export type {
  FakeBehavior,
  FakeProviderKind,
  FakeProviderOptions,
  FakeProviderServer,
  RecordedOutcome,
  RecordedRequest,
} from './types.js';
