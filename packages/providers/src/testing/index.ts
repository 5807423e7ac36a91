// @voice-router/providers/testing: the provider doubles and the server that runs them, for tests and
// benchmarks. Never imported by production code.

export { startFakeProvider, startFakeProviders, FAKE_PROVIDER_KINDS, type CombinedFakeProviderServer } from './start-fake-provider.js';
export { startFakeServer } from './server/fake-server.js';
export { startRawUpstream, chunkedPart, CHUNKED_AUDIO_HEAD, CHUNKED_END, type RawUpstream } from './raw-upstream.js';
export type { FakeAudioReply, FakeContext, FakeErrorReply, FakeProviderHandler, FakeSpeechRequest } from './server/fake-handler.js';
export { jsonError, countCharacters, headerValue, isRecord, markedHeaders, maskKey } from './server/fake-handler.js';
export { mp3ToneAudio, pcmToneAudio, wavToneAudio, SAMPLE_RATE } from './audio/tone-audio.js';
export { readMp3FrameHeader, mp3FrameLengths, type Mp3FrameHeader } from './audio/mp3-frames.js';
export { expectEqual, type ClientRefusalCase, type ConformanceFixture, type ProviderTestKit } from './test-kit.js';
export { ELEVENLABS_FAKE_VOICES } from '../elevenlabs/elevenlabs-double.js';
export { CARTESIA_FAKE_VOICES } from '../cartesia/cartesia-double.js';
export { ELEVENLABS_CLONED_VOICE_ID } from '../elevenlabs/elevenlabs-double-voices.js';
export { CARTESIA_CLONED_VOICE_ID } from '../cartesia/cartesia-double-voices.js';
export type {
  FakeBehavior,
  FakeProviderKind,
  FakeProviderOptions,
  FakeProviderServer,
  RecordedOutcome,
  RecordedRequest,
} from './types.js';
