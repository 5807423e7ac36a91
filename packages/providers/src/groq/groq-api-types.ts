// Groq's POST /openai/v1/audio/speech wire types, as the official groq-sdk names them (SpeechCreateParams).

/** Open union: autocomplete for known ids without refusing new ones. */
export type GroqSpeechModelId = 'canopylabs/orpheus-v1-english' | 'canopylabs/orpheus-arabic-saudi' | (string & {});

export type GroqResponseFormat = 'flac' | 'mp3' | 'mulaw' | 'ogg' | 'wav';

export type GroqSampleRate = 8000 | 16000 | 22050 | 24000 | 32000 | 44100 | 48000;

export interface GroqSpeechRequestBody {
  model: GroqSpeechModelId;
  input: string;
  voice: string;
  response_format?: GroqResponseFormat;
  sample_rate?: GroqSampleRate;
  speed?: number;
}

/** Groq answers errors in OpenAI's shape (`{error: {message, type, code}}`). */
export interface GroqErrorBody {
  error?: { message?: string; type?: string; code?: string | null; param?: string | null };
}
