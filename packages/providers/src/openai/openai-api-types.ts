// OpenAI's /v1/audio/speech wire types (as in the official SDK's CreateSpeechRequest and Error schemas).

/** Open union: autocomplete for known ids without refusing new ones. */
export type OpenAISpeechModelId = 'tts-1' | 'tts-1-hd' | 'gpt-4o-mini-tts' | 'gpt-4o-mini-tts-2025-12-15' | (string & {});

export type OpenAIBuiltInVoice =
  | 'alloy' | 'ash' | 'ballad' | 'coral' | 'echo' | 'fable' | 'onyx' | 'nova' | 'sage' | 'shimmer' | 'verse' | 'marin' | 'cedar';

export interface OpenAISpeechRequestBody {
  model: OpenAISpeechModelId;
  input: string;
  /** A built-in name, or `{ id }` for a custom voice created through /v1/audio/voices. */
  voice: OpenAIBuiltInVoice | (string & {}) | { id: string };
  response_format: 'mp3' | 'pcm' | (string & {});
  speed?: number;
  instructions?: string;
  [extra: string]: unknown;
}

export interface OpenAIErrorBody {
  error?: {
    message?: string;
    type?: string;
    param?: string | null;
    code?: string | null;
  };
}
