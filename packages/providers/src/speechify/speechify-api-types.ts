// Speechify text-to-speech wire types for POST /v1/audio/stream and GET /v1/voices (official SDKs' GetStreamRequest,
// GetVoice; output_format as the Python SDK of 2026-07 names it).

export type SpeechifyModelId = 'simba-english' | 'simba-multilingual' | 'simba-3.0' | 'simba-3.2' | (string & {});

/** What the stream answers, chosen by the Accept header (and pinned by output_format where given). */
export type SpeechifyStreamAccept = 'audio/mpeg' | 'audio/ogg' | 'audio/aac' | 'audio/pcm';

export interface SpeechifyStreamRequestBody {
  input: string;
  voice_id: string;
  model?: SpeechifyModelId;
  /** A locale such as en-US; Speechify detects it when absent. */
  language?: string;
  /** `mp3_24000_128`, `pcm_24000`...: sample rate and bit rate in one name. */
  output_format?: string;
  options?: { loudness_normalization?: boolean; text_normalization?: boolean };
}

export interface SpeechifyVoiceModel {
  name: string;
  languages: Array<{ locale: string; preview_audio?: string | null }>;
}

export interface SpeechifyVoice {
  id: string;
  display_name: string;
  gender: 'male' | 'female' | 'notSpecified' | (string & {});
  locale: string;
  models: SpeechifyVoiceModel[];
  preview_audio?: string | null;
  avatar_image?: string | null;
  tags?: string[] | null;
  type: 'shared' | 'personal' | (string & {});
}

/** Speechify's error body: a JSON object with an `error` string. */
export interface SpeechifyErrorBody {
  error?: string;
}
