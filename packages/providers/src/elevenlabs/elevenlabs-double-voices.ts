// The ElevenLabs fake's voice library: GET /v2/voices with token paging, the premade voices plus the account's own
// cloned voice, and preview MP3s served by the fake itself (real previews live on a public bucket).

import { headerValue, jsonError, jsonReply, type FakeErrorReply, type FakeJsonReply, type FakeSpeechRequest } from '../testing/server/fake-handler.js';

export const ELEVENLABS_PREVIEW_PATH = '/__previews/elevenlabs/';
/** The account's instant voice clone: listed only by the voice API, never in a built-in list. */
export const ELEVENLABS_CLONED_VOICE_ID = 'cL0n3dV01c3aCc0uNt01';

interface FakeVoice {
  voice_id: string;
  name: string;
  category: 'premade' | 'cloned' | 'generated' | 'professional';
  labels: Record<string, string>;
  description: string | null;
  locale: string | null;
  is_owner: boolean;
  created_at_unix: number | null;
}

function premade(voice_id: string, name: string, gender: string, accent: string, locale: string, age: string, use_case: string): FakeVoice {
  return {
    voice_id, name, category: 'premade', labels: { accent, gender, age, use_case, descriptive: 'calm' },
    description: `${name}, a premade ${accent} voice`, locale, is_owner: false, created_at_unix: null,
  };
}

// Labels as ElevenLabs returns them for its premade voices (free-form strings).
const voices: FakeVoice[] = [
  premade('21m00Tcm4TlvDq8ikWAM', 'Rachel', 'female', 'american', 'en-US', 'young', 'narration'),
  premade('pNInz6obpgDQGcFmaJgB', 'Adam', 'male', 'american', 'en-US', 'middle_aged', 'narration'),
  premade('EXAVITQu4vr4xnSDxMaL', 'Sarah', 'female', 'american', 'en-US', 'young', 'entertainment_tv'),
  premade('JBFqnCBsd6RMkjVDRZzb', 'George', 'male', 'british', 'en-GB', 'middle_aged', 'narrative_story'),
  premade('FGY2WhTYpPnrIDTdsKH5', 'Laura', 'female', 'american', 'en-US', 'young', 'social_media'),
  premade('IKne3meq5aSn9XLyUdCD', 'Charlie', 'male', 'australian', 'en-AU', 'young', 'conversational'),
  premade('onwK4e9ZLuTAKqWW03F9', 'Daniel', 'male', 'british', 'en-GB', 'middle_aged', 'informative_educational'),
  premade('Xb7hH8MSUJpSbSDYk0k2', 'Alice', 'female', 'british', 'en-GB', 'middle_aged', 'advertisement'),
  {
    voice_id: ELEVENLABS_CLONED_VOICE_ID, name: 'My Cloned Voice', category: 'cloned', labels: { language: 'de', gender: 'Female' },
    description: null, locale: null, is_owner: true, created_at_unix: 1_790_000_000,
  },
];

/** Voice ids the fake synthesizes with (premade and the account's clone). */
export const ELEVENLABS_FAKE_VOICE_IDS = voices.map((voice) => voice.voice_id);

const ALL_MODELS = ['eleven_multilingual_v2', 'eleven_flash_v2_5', 'eleven_turbo_v2_5', 'eleven_v3'];

function wireVoice(voice: FakeVoice, origin: string) {
  const previewUrl = `${origin}${ELEVENLABS_PREVIEW_PATH}${voice.voice_id}.mp3`;
  const language = voice.locale?.split('-')[0] ?? voice.labels.language ?? null;
  return {
    voice_id: voice.voice_id,
    name: voice.name,
    samples: null,
    category: voice.category,
    fine_tuning: null,
    labels: voice.labels,
    description: voice.description,
    // A fresh clone has no preview until ElevenLabs renders one.
    preview_url: voice.category === 'cloned' ? null : previewUrl,
    available_for_tiers: [],
    settings: null,
    sharing: null,
    high_quality_base_model_ids: voice.category === 'premade' ? ALL_MODELS : [],
    verified_languages: voice.locale
      ? [{ language, model_id: 'eleven_multilingual_v2', accent: voice.labels.accent ?? null, locale: voice.locale, preview_url: previewUrl }]
      : [],
    safety_control: null,
    voice_verification: null,
    permission_on_resource: null,
    is_owner: voice.is_owner,
    is_legacy: false,
    is_mixed: false,
    created_at_unix: voice.created_at_unix,
  };
}

/** `page_size` 1..100 (default 10); the token is opaque to clients (here: the next offset, base64url). */
export function listElevenLabsVoices(request: FakeSpeechRequest): FakeJsonReply | FakeErrorReply {
  const query = request.query;
  const pageSize = Number(query.get('page_size') ?? '10');
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
    return jsonError(422, { detail: [{ type: 'less_than_equal', loc: ['query', 'page_size'], msg: 'Input should be between 1 and 100', input: query.get('page_size') }] });
  }
  const token = query.get('next_page_token');
  const offset = token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
  if (!Number.isInteger(offset) || offset < 0) {
    return jsonError(400, { detail: { status: 'invalid_next_page_token', message: 'The page token is invalid' } });
  }
  const search = query.get('search')?.toLowerCase();
  const category = query.get('category');
  const matching = voices.filter(
    (voice) => (!search || voice.name.toLowerCase().includes(search)) && (!category || voice.category === category),
  );
  const page = matching.slice(offset, offset + pageSize);
  const hasMore = offset + pageSize < matching.length;
  const origin = `http://${headerValue(request.headers, 'host') ?? '127.0.0.1'}`;
  return jsonReply({
    voices: page.map((voice) => wireVoice(voice, origin)),
    has_more: hasMore,
    total_count: matching.length,
    next_page_token: hasMore ? Buffer.from(String(offset + pageSize)).toString('base64url') : null,
  });
}
