// Neuphonic wire types: POST /sse/speak/{lang_code} (TTSConfig + text, answered as SSE) and GET /voices
// (official @neuphonic/neuphonic-js and pyneuphonic SDKs).

export interface NeuphonicSpeakRequestBody {
  text: string;
  lang_code: string;
  voice_id?: string;
  /** 0.7 to 2.0, default 1.0. */
  speed?: number;
  temperature?: number;
  sampling_rate?: 8000 | 16000 | 22050 | 24000;
  encoding?: 'pcm_linear' | 'pcm_mulaw';
}

/** One SSE event's JSON: audio as base64 in `data.audio`; a failure carries a non-2xx status_code and `errors`. */
export interface NeuphonicSseMessage {
  status_code: number;
  data?: { audio: string; text?: string; sampling_rate?: number };
  errors?: unknown[];
}

export interface NeuphonicVoice {
  id: string;
  voice_id: string;
  name: string;
  tags?: string[];
  model_availability?: string[];
  lang_code: string;
  type: string;
  created_at: string;
  updated_at: string;
}

/** Error bodies before the stream starts are FastAPI's `{detail: string | [...]}`. */
export interface NeuphonicErrorBody {
  detail?: string | unknown[];
}
