// The Cartesia fake's voice library: GET /voices with cursor paging (`limit`, `starting_after`, `ending_before`,
// `has_more`, `next_page`), public library voices plus the account's own clone, previews when expanded.

import { headerValue, jsonReply, type FakeJsonReply, type FakeSpeechRequest } from '../testing/server/fake-handler.js';

export const CARTESIA_PREVIEW_PATH = '/__previews/cartesia/';
/** The account's own cloned voice (private, is_owner). */
export const CARTESIA_CLONED_VOICE_ID = '0c1a9b2e-5d4f-4c3b-9a8e-c10e00000001';

type Gender = 'masculine' | 'feminine' | 'gender_neutral';

interface FakeVoice {
  id: string;
  name: string;
  description: string;
  tagline: string | null;
  language: string;
  locales: string[];
  gender: Gender | null;
  accent: string | null;
  country: string | null;
  is_owner: boolean;
  access: 'private' | 'public';
  created_at: string;
}

function library(id: string, name: string, locale: string, gender: Gender, tagline: string, accent: string): FakeVoice {
  const [language, country] = locale.split('-') as [string, string];
  return {
    id, name, description: `${tagline}: a ${accent} library voice`, tagline, language, locales: [locale], gender, accent, country,
    is_owner: false, access: 'public', created_at: '2025-10-27T00:00:00Z',
  };
}

const voices: FakeVoice[] = [
  library('694f9389-aac1-45b6-b726-9d9369183238', 'Sarah', 'en-US', 'feminine', 'Mindful Woman', 'american'),
  library('9626c31c-bec5-4cca-baa8-f8ba9e84c8bc', 'Jacqueline', 'en-US', 'feminine', 'Reassuring Agent', 'american'),
  library('a0e99841-438c-4a64-b679-ae501e7d6091', 'Greg', 'en-US', 'masculine', 'Supporter', 'american'),
  library('f786b574-daa5-4673-aa0c-cbe3e8534c02', 'Katie', 'en-US', 'feminine', 'Friendly Fixer', 'american'),
  library('162e0f37-8504-474c-bb33-c606c01890dc', 'Catalina', 'es-CO', 'feminine', 'Neighborly Guide', 'colombian'),
  library('b5aa8098-49ef-475d-89b0-c9262ecf33fd', 'Luis', 'es-ES', 'masculine', 'News Caster', 'castilian'),
  library('f39bf583-3b3d-402f-9ffb-6179d9ec3e35', 'Isabel', 'pt-PT', 'feminine', 'Confident Woman', 'european'),
  {
    id: CARTESIA_CLONED_VOICE_ID, name: 'Our Support Voice', description: 'Cloned from a recording of our support lead', tagline: null,
    language: 'fr', locales: [], gender: null, accent: null, country: null, is_owner: true, access: 'private', created_at: '2026-11-01T09:30:00Z',
  },
];

/** Voice ids the fake synthesizes with. */
export const CARTESIA_FAKE_VOICE_IDS = voices.map((voice) => voice.id);

/** `limit` 1..100 (default 10); the cursor is a voice id, as Cartesia's list endpoints page. */
export function listCartesiaVoices(request: FakeSpeechRequest): FakeJsonReply | { status: number; message: string } {
  const query = request.query;
  const limit = Number(query.get('limit') ?? '10');
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return { status: 400, message: 'limit must be between 1 and 100' };
  const q = query.get('q')?.toLowerCase();
  const gender = query.get('gender');
  const isOwner = query.get('is_owner');
  const matching = voices.filter(
    (voice) =>
      (!q || voice.name.toLowerCase().includes(q) || voice.description.toLowerCase().includes(q)) &&
      (!gender || voice.gender === gender) &&
      (isOwner === null || String(voice.is_owner) === isOwner),
  );
  const after = query.get('starting_after');
  const before = query.get('ending_before');
  let start = 0;
  let end = matching.length;
  if (after) {
    const index = matching.findIndex((voice) => voice.id === after);
    if (index === -1) return { status: 400, message: `starting_after ${after} is not a voice in this listing` };
    start = index + 1;
  }
  if (before) {
    const index = matching.findIndex((voice) => voice.id === before);
    if (index === -1) return { status: 400, message: `ending_before ${before} is not a voice in this listing` };
    end = index;
    start = Math.max(start, end - limit);
  }
  const page = matching.slice(start, Math.min(end, start + limit));
  const hasMore = start + page.length < end;
  const expandPreview = query.getAll('expand[]').includes('preview_file_url');
  const origin = `http://${headerValue(request.headers, 'host') ?? '127.0.0.1'}`;
  const data = page.map((voice) => ({
    ...voice,
    // Only public voices have a rendered preview in this fake; a fresh clone has none yet.
    ...(expandPreview ? { preview_file_url: voice.access === 'public' ? `${origin}${CARTESIA_PREVIEW_PATH}${voice.id}.mp3` : null } : {}),
  }));
  return jsonReply({ data, has_more: hasMore, next_page: hasMore ? page.at(-1)!.id : null });
}
