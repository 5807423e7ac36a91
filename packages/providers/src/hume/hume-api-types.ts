// Hume Octave TTS wire types for POST /v0/tts/stream/file (from the official `hume` SDK's PostedTts).

/** Router model ids and the Octave version each one pins. */
export const HUME_MODEL_VERSIONS: Record<string, '1' | '2'> = { 'octave-1': '1', 'octave-2': '2' };

export type HumeVoiceProvider = 'HUME_AI' | 'CUSTOM_VOICE';

export type HumePostedUtteranceVoice = { id: string; provider?: HumeVoiceProvider } | { name: string; provider?: HumeVoiceProvider };

export interface HumePostedUtterance {
  text: string;
  voice?: HumePostedUtteranceVoice;
  /** Acting directions when a voice is given (best at 100 characters or fewer). */
  description?: string;
  speed?: number;
  trailing_silence?: number;
}

export interface HumeSpeechRequestBody {
  utterances: HumePostedUtterance[];
  format?: { type: 'mp3' | 'wav' | 'pcm' };
  version?: '1' | '2';
  instant_mode?: boolean;
  strip_headers?: boolean;
  num_generations?: number;
  split_utterances?: boolean;
}

/** Hume's generic error body (SDK `tts.ErrorResponse`); 422 answers `{detail: [...]}` (HttpValidationError). */
export interface HumeErrorBody {
  code?: string;
  error?: string;
  message?: string;
}
