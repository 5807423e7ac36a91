// Fish Audio's POST /v1/tts wire types (from the official fish-audio SDK's TTSRequest; the model is a header).

/** Open union: autocomplete for known ids without refusing new ones. Sent as the `model` header. */
export type FishModelId = 's2.1-pro' | 's2-pro' | 's1' | 'speech-1.6' | 'speech-1.5' | (string & {});

export interface FishSpeechRequestBody {
  text: string;
  /** The voice: a voice model id from fish.audio (32 hex characters). */
  reference_id?: string;
  temperature?: number;
  top_p?: number;
  prosody?: { speed?: number; volume?: number };
  chunk_length?: number;
  normalize?: boolean;
  format?: 'wav' | 'pcm' | 'mp3' | 'opus';
  sample_rate?: number;
  mp3_bitrate?: 64 | 128 | 192;
  latency?: 'low' | 'normal' | 'balanced';
}

/** `{status, message}` for 401/402/404/429; 422 is a list of `{loc, type, msg}`. */
export interface FishErrorBody {
  status?: number;
  message?: string;
}
