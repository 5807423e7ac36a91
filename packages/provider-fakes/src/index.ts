// Public surface of @voice-router/provider-fakes: faithful local stand-ins for upstream speech APIs. The doubles
// live in each provider's folder (packages/providers/src/<id>/<id>-double.ts) and are found through the
// provider list; this package keeps the stable entry points (and the CLI) for tests, benchmarks and fuzzing.

export {
  startFakeProvider,
  startFakeProviders,
  FAKE_PROVIDER_KINDS,
  ELEVENLABS_FAKE_VOICES,
  CARTESIA_FAKE_VOICES,
  ELEVENLABS_CLONED_VOICE_ID,
  CARTESIA_CLONED_VOICE_ID,
  readMp3FrameHeader,
  mp3FrameLengths,
  type CombinedFakeProviderServer,
  type Mp3FrameHeader,
  type FakeBehavior,
  type FakeProviderKind,
  type FakeProviderOptions,
  type FakeProviderServer,
  type RecordedOutcome,
  type RecordedRequest,
} from '@voice-router/providers/testing';
