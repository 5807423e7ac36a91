// The Fish Audio fake's voice models: GET /model?page_size&page_number(1-based)&self&title&tag&language&sort_by
// → {total, items: [ModelEntity]}; public community models by other authors plus the account's own (self=true),
// one of which is still training. Sample audio is served under a preview path.

import { headerValue, jsonReply, type FakeJsonReply, type FakeSpeechRequest } from '../testing/server/fake-handler.js';

export const FISH_PREVIEW_PATH = '/__previews/fish/';
/** The account's own trained voice model. */
export const FISH_OWN_VOICE_ID = '0a1b2c3d4e5f40718293a4b5c6d7e8f9';
/** The account's model still training: listed, not usable. */
export const FISH_TRAINING_VOICE_ID = '9f8e7d6c5b4a43210fedcba987654321';
const ACCOUNT = { _id: 'acct0000000000000000000000000001', nickname: 'our-team', avatar: '' };
const OTHER = { _id: 'auth0000000000000000000000000002', nickname: 'community', avatar: '' };
const MAX_PAGE_SIZE = 100;

interface FakeModel {
  _id: string;
  type: 'tts' | 'svc';
  title: string;
  description: string;
  state: 'created' | 'training' | 'trained' | 'failed';
  tags: string[];
  languages: string[];
  visibility: 'public' | 'unlist' | 'private';
  author: typeof ACCOUNT;
  created_at: string;
}

function model(id: string, title: string, languages: string[], tags: string[], author = OTHER, overrides: Partial<FakeModel> = {}): FakeModel {
  return {
    _id: id, type: 'tts', title, description: `${title}, a voice model`, state: 'trained', tags, languages,
    visibility: author === ACCOUNT ? 'private' : 'public', author, created_at: '2026-03-01T00:00:00Z', ...overrides,
  };
}

const models: FakeModel[] = [
  model('802e3bc2b27e49c2995d23ef70e6ac89', 'Energetic Male', ['en'], ['male', 'energetic']),
  model('7f92f8afb8ec43bf81429cc1c9199cb1', 'Calm Narrator', ['en'], ['female', 'narration']),
  model('e58b0d7efca34eb38d5c4985e378abcb', '温柔女声', ['zh'], ['female', 'gentle']),
  model(FISH_OWN_VOICE_ID, 'Our Support Voice', ['en', 'es'], ['support'], ACCOUNT),
  model('1b2c3d4e5f6a47b8c9d0e1f2a3b4c5d6', 'Our Announcer', ['pt-BR'], ['male', 'announcer'], ACCOUNT),
  model('2c3d4e5f6a7b48c9d0e1f2a3b4c5d6e7', 'Our Storyteller', ['de'], ['female'], ACCOUNT, { visibility: 'unlist' }),
  model(FISH_TRAINING_VOICE_ID, 'Draft Clone', ['en'], [], ACCOUNT, { state: 'training' }),
];

/** Voice models the fake synthesizes with: every trained one (public or the account's). */
export const FISH_FAKE_VOICE_IDS: ReadonlySet<string> = new Set(models.filter((entry) => entry.state === 'trained').map((entry) => entry._id));

function entity(entry: FakeModel, origin: string) {
  const samples = entry.state === 'trained' ? [{ title: 'Sample', text: 'Hello there.', task_id: `task_${entry._id.slice(0, 8)}`, audio: `${origin}${FISH_PREVIEW_PATH}${entry._id}.mp3` }] : [];
  return {
    ...entry,
    cover_image: `coverimage/${entry._id}`,
    updated_at: entry.created_at,
    like_count: 0, mark_count: 0, shared_count: 0, task_count: 0,
    train_mode: 'fast',
    samples,
    lock_visibility: false, liked: false, unliked: false, marked: false,
  };
}

/** A refusal is `{loc, msg}` for a 422 worded as Fish's validation list. */
export function listFishModels(request: FakeSpeechRequest): FakeJsonReply | { loc: string; msg: string } {
  const query = request.query;
  const pageSize = Number(query.get('page_size') ?? '10');
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) return { loc: 'page_size', msg: `Input should be between 1 and ${MAX_PAGE_SIZE}` };
  const pageNumber = Number(query.get('page_number') ?? '1');
  if (!Number.isInteger(pageNumber) || pageNumber < 1) return { loc: 'page_number', msg: 'Input should be greater than or equal to 1' };
  const self = query.get('self');
  if (self !== null && self !== 'true' && self !== 'false') return { loc: 'self', msg: 'Input should be a valid boolean' };
  const title = query.get('title')?.toLowerCase();
  const tags = query.getAll('tag');
  const languages = query.getAll('language');
  const matching = models.filter(
    (entry) =>
      (self === 'true' ? entry.author === ACCOUNT : entry.visibility === 'public') &&
      (!title || entry.title.toLowerCase().includes(title)) &&
      tags.every((tag) => entry.tags.includes(tag)) &&
      (languages.length === 0 || languages.some((language) => entry.languages.includes(language))),
  );
  const origin = `http://${headerValue(request.headers, 'host') ?? '127.0.0.1'}`;
  const items = matching.slice((pageNumber - 1) * pageSize, pageNumber * pageSize).map((entry) => entity(entry, origin));
  return jsonReply({ total: matching.length, items });
}
