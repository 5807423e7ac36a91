// MiniMax's T2A v2 catalog: the speech models with per-character price estimates and a few system voices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

/** T2A v2 takes fewer than 10,000 characters per request (longer text goes to the async API). */
const MAX_INPUT_CHARACTERS = 9999;

// MiniMax's pay-as-you-go speech prices are not confirmed here: $100 per 1M characters for HD models and $60 for
// turbo models are estimates near its published list prices. Operators set their own with PRICING_FILE.
function model(id: string, name: string): ModelDescriptor {
  const microsPerUnit = id.endsWith('-hd') ? 100 : 60;
  return { id, name, responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit }, maxInputCharacters: MAX_INPUT_CHARACTERS };
}

const models: ModelDescriptor[] = [
  model('speech-2.8-hd', 'Speech 2.8 HD'),
  model('speech-2.8-turbo', 'Speech 2.8 Turbo'),
  model('speech-2.6-hd', 'Speech 2.6 HD'),
  model('speech-2.6-turbo', 'Speech 2.6 Turbo'),
  model('speech-02-hd', 'Speech 02 HD'),
  model('speech-02-turbo', 'Speech 02 Turbo'),
];
const ALL_MODELS = models.map((entry) => entry.id);

function voice(id: string, name: string, language: string, gender: string): VoiceDescriptor {
  return { id, name, language, labels: { gender, type: 'system' }, modelCompatibility: ALL_MODELS };
}

const voices: VoiceDescriptor[] = [
  voice('English_expressive_narrator', 'Expressive Narrator', 'en', 'male'),
  voice('English_radiant_girl', 'Radiant Girl', 'en', 'female'),
  voice('English_CalmWoman', 'Calm Woman', 'en', 'female'),
  voice('male-qn-qingse', 'Qingse', 'zh', 'male'),
];

export const miniMaxDescriptor: ProviderDescriptor = {
  id: 'minimax',
  name: 'MiniMax (T2A v2)',
  website: 'https://platform.minimax.io/docs/api-reference/speech-t2a-http',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'the async long-text API (t2a_async_v2)',
      'websocket streaming',
      'voice_modify, pronunciation_dict, subtitles, timber_weights mixing',
      'flac and wav output',
    ],
    quirks: [
      'prices are estimates ($100 per 1M characters for HD models, $60 for turbo models)',
      'the router streams (stream: true): SSE events with hex audio in data.audio, decoded by the router; stream_options.exclude_aggregated_audio keeps the final event from repeating the whole audio',
      'MiniMax answers most errors with HTTP 200 and base_resp.status_code: a JSON answer to a streaming request is classified by that code, never passed on as success; a non-zero code mid-stream ends the stream as a bad response',
      'mp3 is asked at 24 kHz 128 kbps mono; pcm at 24 kHz mono',
      'speed maps to voice_setting.speed, clamped to 0.5..2; instructions are ignored (provider_options.emotion picks an emotion)',
      'no GroupId: current MiniMax API keys need none (MINIMAX_BASE_URL picks the region, e.g. https://api.minimaxi.com for mainland China)',
      'no official JS SDK on npm (MiniMax publishes an MCP server and a CLI), so there is no SDK fidelity test',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
