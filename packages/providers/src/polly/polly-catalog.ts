// Amazon Polly's speech catalog: the four engines as models, with per-character prices, and a snapshot of
// its voices (the live list comes from DescribeVoices).

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';
import type { PollyEngine } from './polly-api-types.js';

/** aws.amazon.com/polly/pricing, per 1M characters: Standard $4, Neural $16, Long-Form $100, Generative $30. */
const MICROS_PER_CHARACTER: Record<PollyEngine, number> = { standard: 4, neural: 16, 'long-form': 100, generative: 30 };
/** SynthesizeSpeech takes at most 3,000 billed characters (6,000 in all with SSML tags). */
export const POLLY_MAX_INPUT_CHARACTERS = 3000;

const ENGINE_NAMES: Record<PollyEngine, string> = { standard: 'Standard', neural: 'Neural', 'long-form': 'Long-Form', generative: 'Generative' };

const models: ModelDescriptor[] = (Object.keys(ENGINE_NAMES) as PollyEngine[]).map((engine) => ({
  id: engine,
  name: `Polly ${ENGINE_NAMES[engine]}`,
  responseFormats: ['mp3', 'pcm'],
  pricing: { unit: 'character', microsPerUnit: MICROS_PER_CHARACTER[engine] },
  maxInputCharacters: POLLY_MAX_INPUT_CHARACTERS,
}));

function voice(id: string, language: string, gender: 'female' | 'male', engines: PollyEngine[]): VoiceDescriptor {
  return { id, name: id, language, labels: { gender }, modelCompatibility: engines };
}

/** A snapshot of common voices and the engines they support (DescribeVoices, 2026). */
export const POLLY_SNAPSHOT_VOICES: VoiceDescriptor[] = [
  voice('Joanna', 'en-US', 'female', ['standard', 'neural', 'long-form', 'generative']),
  voice('Matthew', 'en-US', 'male', ['standard', 'neural', 'generative']),
  voice('Ruth', 'en-US', 'female', ['neural', 'long-form', 'generative']),
  voice('Stephen', 'en-US', 'male', ['neural', 'generative']),
  voice('Danielle', 'en-US', 'female', ['neural', 'long-form', 'generative']),
  voice('Gregory', 'en-US', 'male', ['neural', 'long-form']),
  voice('Ivy', 'en-US', 'female', ['standard', 'neural']),
  voice('Kendra', 'en-US', 'female', ['standard', 'neural']),
  voice('Joey', 'en-US', 'male', ['standard', 'neural']),
  voice('Amy', 'en-GB', 'female', ['standard', 'neural', 'generative']),
  voice('Brian', 'en-GB', 'male', ['standard', 'neural']),
  voice('Olivia', 'en-AU', 'female', ['neural', 'generative']),
  voice('Lucia', 'es-ES', 'female', ['standard', 'neural', 'generative']),
  voice('Lupe', 'es-US', 'female', ['standard', 'neural', 'generative']),
  voice('Lea', 'fr-FR', 'female', ['standard', 'neural', 'generative']),
  voice('Vicki', 'de-DE', 'female', ['standard', 'neural', 'generative']),
  voice('Bianca', 'it-IT', 'female', ['standard', 'neural', 'generative']),
  voice('Takumi', 'ja-JP', 'male', ['standard', 'neural']),
  voice('Camila', 'pt-BR', 'female', ['standard', 'neural']),
  voice('Zhiyu', 'cmn-CN', 'female', ['standard', 'neural']),
];

export const pollyDescriptor: ProviderDescriptor = {
  id: 'polly',
  name: 'Amazon Polly',
  website: 'https://docs.aws.amazon.com/polly/latest/dg/API_SynthesizeSpeech.html',
  requiresApiKey: true,
  models,
  voices: POLLY_SNAPSHOT_VOICES,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'SSML input (TextType ssml)',
      'speech marks (OutputFormat json)',
      'ogg_vorbis, ogg_opus, mulaw and alaw output; 8, 16 and 22.05 kHz mp3',
      'asynchronous synthesis tasks (StartSpeechSynthesisTask, output to S3)',
      'bidirectional streaming (StartSpeechSynthesisStream)',
      'credentials from profiles, instance roles, SSO or web identity (only static keys from the environment are read)',
    ],
    quirks: [
      'models are Polly engines (standard, neural, long-form, generative); a voice supports only some of them (EngineNotSupportedException names the model)',
      'prices from aws.amazon.com/polly/pricing per 1M characters: Standard $4, Neural $16, Long-Form $100, Generative $30',
      'mp3 is asked at SampleRate 24000; pcm comes only at 8 or 16 kHz, so the router asks for 16 kHz s16le and resamples to 24 kHz',
      'requests are signed with AWS Signature V4 (service polly) from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (AWS_SESSION_TOKEN optional)',
      'speed and instructions are not supported for plain text (SSML prosody is not used) and are dropped with a warning',
      'errors are classified by the x-amzn-ErrorType header name only; the body message is never read',
      'the built-in voice list is a 2026 snapshot; the live list comes from DescribeVoices (GET /v1/voices)',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
