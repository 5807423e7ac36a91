// Cartesia's /tts/bytes wire types for API version 2026-08-14 (from the official SDK's request types).

export const CARTESIA_API_VERSION = '2026-08-14';

/** Open union: autocomplete for known ids without refusing new ones. */
export type CartesiaModelId = 'sonic-3.5' | 'sonic-3' | 'sonic-latest' | (string & {});

export type CartesiaOutputFormat =
  | { container: 'mp3'; sample_rate: number; bit_rate: number }
  | { container: 'raw' | 'wav'; encoding: 'pcm_s16le' | 'pcm_f32le' | 'pcm_mulaw' | 'pcm_alaw'; sample_rate: number };

export interface CartesiaGenerationConfig {
  speed?: number;
  volume?: number;
  emotion?: string;
}

export interface CartesiaSpeechRequestBody {
  model_id: CartesiaModelId;
  transcript: string;
  voice: { id: string };
  output_format: CartesiaOutputFormat;
  language?: string;
  locale?: string;
  normalization?: string;
  pronunciation_dict_id?: string;
  generation_config?: CartesiaGenerationConfig;
}

/** From version 2026-03-01 on; older versions answer `Title: Message` as plain text. */
export interface CartesiaErrorBody {
  error_code?: string | null;
  title?: string;
  message?: string;
  request_id?: string;
  doc_url?: string;
}
