// Resemble AI wire types: the synthesis server's POST /stream (chunked WAV) and the management API's
// GET /v2/voices (official @resemble/node SDK's StreamInput, Voice, PaginationResponseV2, ErrorResponseV2).

export type ResembleModelId = 'chatterbox' | 'chatterbox-turbo' | 'chatterbox-multilingual' | (string & {});

export type ResemblePrecision = 'MULAW' | 'PCM_16' | 'PCM_24' | 'PCM_32';

export interface ResembleStreamRequestBody {
  voice_uuid: string;
  /** Text or SSML. */
  data: string;
  project_uuid?: string;
  /** The server defaults to 32-bit samples; the router always asks for PCM_16. */
  precision?: ResemblePrecision;
  sample_rate?: 8000 | 16000 | 22050 | 32000 | 44100 | 48000;
  model?: ResembleModelId;
}

export interface ResembleVoice {
  uuid: string;
  name: string;
  status?: string;
  voice_status?: string;
  default_language?: string;
  supported_languages?: string[];
  created_at?: string;
  updated_at?: string;
}

export interface ResembleVoicePage {
  success: boolean;
  page: number;
  num_pages: number;
  page_size: number;
  items: ResembleVoice[];
}

/** Resemble's error body (ErrorResponseV2). */
export interface ResembleErrorBody {
  success: false;
  message?: string;
}
