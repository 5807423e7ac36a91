// Deepgram Aura's POST /v1/speak wire types (from the official @deepgram/sdk's SpeakV1Request and the
// developers.deepgram.com TTS reference). Every option travels in the query string; the body is `{text}`.

/** Query parameters of POST /v1/speak, as the SDK names them. */
export interface DeepgramSpeakQuery {
  /** The upstream model is the voice: `aura-2-thalia-en`, `aura-asteria-en`... */
  model: string;
  encoding: DeepgramEncoding;
  container?: 'none' | 'wav' | 'ogg';
  sample_rate?: number;
  bit_rate?: number;
  speed?: number;
  tag?: string;
  mip_opt_out?: boolean;
}

export type DeepgramEncoding = 'linear16' | 'mulaw' | 'alaw' | 'mp3' | 'opus' | 'flac' | 'aac';

export interface DeepgramSpeakBody {
  text: string;
}

/**
 * Deepgram's two documented error envelopes (developers.deepgram.com/reference/errors): the older
 * `{err_code, err_msg, request_id}` and the newer `{category, message, details, request_id}`.
 */
export interface DeepgramErrorBody {
  err_code?: string;
  err_msg?: string;
  category?: string;
  message?: string;
  details?: string;
  request_id?: string;
}
