// Murf text to speech wire types for POST /v1/speech/stream and GET /v1/speech/voices (from the official
// murf-python-sdk, `text_to_speech/client.py` and `types/api_voice.py`).

/** The stream endpoint's `model` field; FALCON is Murf's default outside US-East. */
export type MurfModel = 'FALCON' | 'GEN2' | (string & {});

export type MurfFormat = 'MP3' | 'WAV' | 'FLAC' | 'ALAW' | 'ULAW' | 'PCM' | 'OGG';

export interface MurfStreamRequestBody {
  text: string;
  /** A voice id (`en-US-natalie`) or the voice actor's name (`natalie`). */
  voiceId: string;
  model?: MurfModel;
  format?: MurfFormat;
  /** 8000, 16000, 24000, 44100 or 48000; Murf's default is 24000 for FALCON and 44100 for GEN2. */
  sampleRate?: number;
  channelType?: 'MONO' | 'STEREO';
  locale?: string;
  /** Speed, -50..50 (percent around the voice's normal pace). */
  rate?: number;
  /** Pitch, -50..50. */
  pitch?: number;
  style?: string;
  /** GEN2 only: 0..5, more variation in pause, pitch and speed. */
  variation?: number;
}

/** One entry of GET /v1/speech/voices (an array, not paged). */
export interface MurfApiVoice {
  voiceId?: string;
  displayName?: string;
  locale?: string;
  displayLanguage?: string;
  accent?: string;
  gender?: 'Male' | 'Female' | 'NonBinary' | (string & {});
  description?: string;
  availableStyles?: string[];
  supportedLocales?: Record<string, { detail?: string; availableStyles?: string[] }>;
}

/**
 * Murf's error body as its API answers it (`errorMessage`, `errorCode`); the SDK types it as any, so the
 * shape is not guaranteed: the classifier reads the status only.
 */
export interface MurfErrorBody {
  errorMessage?: string;
  errorCode?: number;
}
