// Inworld TTS wire types for POST /tts/v1/voice:stream and GET /voices/v1/voices (from the official
// @inworld/tts SDK's request builder and its `VoiceInfo`).

export type InworldModelId = 'inworld-tts-1' | 'inworld-tts-1-max' | 'inworld-tts-1.5-mini' | 'inworld-tts-1.5-max' | 'inworld-tts-2' | (string & {});

export type InworldAudioEncoding = 'MP3' | 'OGG_OPUS' | 'LINEAR16' | 'WAV' | 'PCM' | 'FLAC' | 'ALAW' | 'MULAW';

export interface InworldAudioConfig {
  audioEncoding?: InworldAudioEncoding;
  sampleRateHertz?: number;
  /** MP3 and OGG_OPUS only, in bits per second. */
  bitRate?: number;
  /** 0.5..1.5. */
  speakingRate?: number;
}

export interface InworldSpeechRequestBody {
  text: string;
  voiceId: string;
  modelId: InworldModelId;
  audioConfig?: InworldAudioConfig;
  /** 0..2; ignored on inworld-tts-2. */
  temperature?: number;
  applyTextNormalization?: 'ON' | 'OFF';
  /** inworld-tts-2 only. */
  deliveryMode?: 'STABLE' | 'BALANCED' | 'CREATIVE';
}

/** One NDJSON line of the stream: audio in `result`, or a gRPC-style `error` mid-stream. */
export interface InworldStreamLine {
  result?: { audioContent?: string; usage?: { processedCharactersCount?: number; modelId?: string }; timestampInfo?: unknown };
  error?: InworldErrorBody;
}

/** Google-style (gRPC gateway) error body: `code` is the gRPC status number. */
export interface InworldErrorBody {
  code?: number;
  message?: string;
  details?: unknown[];
}

/** gRPC status numbers the classifier compares against. */
export const GRPC = { INVALID_ARGUMENT: 3, NOT_FOUND: 5, PERMISSION_DENIED: 7, RESOURCE_EXHAUSTED: 8, FAILED_PRECONDITION: 9, UNAUTHENTICATED: 16 } as const;

/** One entry of GET /voices/v1/voices (`{voices: [...]}`, not paged). */
export interface InworldVoiceInfo {
  voiceId?: string;
  displayName?: string;
  langCode?: string;
  description?: string;
  tags?: string[];
  source?: string;
}
