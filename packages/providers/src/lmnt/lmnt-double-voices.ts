// The LMNT fake's voice library: GET /v1/ai/voice/list?owner=system|me|all&starred=true|false answers one JSON
// array (LMNT's list is not paged), system voices plus the account's own clone and a clone still training.

import { headerValue, jsonReply, type FakeJsonReply, type FakeSpeechRequest } from '../testing/server/fake-handler.js';

export const LMNT_PREVIEW_PATH = '/__previews/lmnt/';
/** The account's own instant clone, ready to speak. */
export const LMNT_CLONED_VOICE_ID = 'c1a9b2e5d4f04c3b';
/** A clone the account created that is still training: listed, but not yet usable. */
export const LMNT_TRAINING_VOICE_ID = 'f0e1d2c3b4a59687';

interface FakeVoice {
  id: string;
  name: string;
  owner: 'system' | 'me';
  state: 'ready' | 'training';
  description: string | null;
  gender: string;
  starred: boolean;
  tags: string[];
  type: 'instant';
}

function system(id: string, name: string, gender: string, description: string, tags: string[]): FakeVoice {
  return { id, name, owner: 'system', state: 'ready', description, gender, starred: false, tags, type: 'instant' };
}

const voices: FakeVoice[] = [
  system('leah', 'Leah', 'female', 'Calm and clear, a narrator', ['narration', 'calm']),
  system('morgan', 'Morgan', 'female', 'Warm and conversational', ['conversational']),
  system('ava', 'Ava', 'female', 'Bright and upbeat', ['energetic']),
  system('amy', 'Amy', 'female', 'Friendly support agent', ['support']),
  system('ansel', 'Ansel', 'male', 'Measured and deep', ['narration']),
  system('brandon', 'Brandon', 'male', 'Casual young adult', ['casual']),
  system('caleb', 'Caleb', 'male', 'Confident presenter', ['presenter']),
  system('daniel', 'Daniel', 'male', 'British, articulate', ['british']),
  { id: LMNT_CLONED_VOICE_ID, name: 'Our Support Voice', owner: 'me', state: 'ready', description: null, gender: 'nonbinary', starred: true, tags: [], type: 'instant' },
  { id: LMNT_TRAINING_VOICE_ID, name: 'Draft Voice', owner: 'me', state: 'training', description: 'Still training', gender: 'female', starred: false, tags: [], type: 'instant' },
];

/** Voices the fake synthesizes with: every ready voice (a training clone is refused like an unknown one). */
export const LMNT_FAKE_VOICE_IDS: ReadonlySet<string> = new Set(voices.filter((voice) => voice.state === 'ready').map((voice) => voice.id));

/** `owner` defaults to `all`; `starred=true` keeps starred voices only. */
export function listLmntVoices(request: FakeSpeechRequest): FakeJsonReply | { status: number; message: string } {
  const owner = request.query.get('owner') ?? 'all';
  if (!['system', 'me', 'all'].includes(owner)) return { status: 400, message: 'owner must be one of system, me, all' };
  const starred = request.query.get('starred');
  if (starred !== null && starred !== 'true' && starred !== 'false') return { status: 400, message: 'starred must be true or false' };
  const origin = `http://${headerValue(request.headers, 'host') ?? '127.0.0.1'}`;
  const listed = voices
    .filter((voice) => (owner === 'all' || voice.owner === owner) && (starred !== 'true' || voice.starred))
    // A clone has a preview once trained; system voices always do.
    .map((voice) => ({ ...voice, ...(voice.state === 'ready' ? { preview_url: `${origin}${LMNT_PREVIEW_PATH}${voice.id}.mp3` } : {}) }));
  return jsonReply(listed);
}
