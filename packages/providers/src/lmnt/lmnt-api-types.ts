// LMNT's POST /v1/ai/speech/bytes wire types (from the official lmnt-node SDK's SpeechGenerateParams).

/** The API version the official SDK sends in its `lmnt-version` header (lmnt-node 2.12.0). */
export const LMNT_API_VERSION = '1.1';

/** Open union: autocomplete for known ids without refusing new ones. */
export type LmntModelId = 'blizzard' | (string & {});

export type LmntFormat = 'aac' | 'mp3' | 'ulaw' | 'wav' | 'webm' | 'pcm_s16le' | 'pcm_f32le';

export interface LmntSpeechRequestBody {
  text: string;
  voice: string;
  model?: LmntModelId;
  format?: LmntFormat;
  sample_rate?: 8000 | 16000 | 24000;
  language?: string;
  temperature?: number;
  top_p?: number;
  debug?: boolean;
}

/** The error categories LMNT's API names (lmnt-python `types/error_body.py`). */
export type LmntErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'payment_required_error'
  | 'rate_limit_error'
  | 'internal_server_error';

/**
 * The HTTP error body. The SDK reads the category at `error.type` (lmnt-node `APIError.generate`); the
 * envelope beyond that is not documented, so the double and the classifier assume `{error: {type, message}}`.
 */
export interface LmntErrorBody {
  error?: { type?: LmntErrorType | (string & {}); message?: string };
}
