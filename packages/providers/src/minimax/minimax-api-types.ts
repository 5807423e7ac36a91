// MiniMax T2A v2 wire types (POST /v1/t2a_v2, POST /v1/get_voice), as MiniMax's API reference and its official
// CLI (MiniMax-AI/cli) name them.

export type MiniMaxModelId =
  | 'speech-2.8-hd' | 'speech-2.8-turbo' | 'speech-2.6-hd' | 'speech-2.6-turbo' | 'speech-02-hd' | 'speech-02-turbo' | (string & {});

export interface MiniMaxSpeechRequestBody {
  model: MiniMaxModelId;
  text: string;
  stream: boolean;
  /** Without it the final stream event repeats the whole audio. */
  stream_options?: { exclude_aggregated_audio?: boolean };
  voice_setting: { voice_id: string; speed?: number; vol?: number; pitch?: number; emotion?: string };
  audio_setting: { sample_rate: number; bitrate?: number; format: 'mp3' | 'pcm' | 'flac' | 'wav'; channel: 1 | 2 };
  language_boost?: string;
  output_format?: 'hex' | 'url';
}

/** `status_code` 0 is success; MiniMax answers most errors with HTTP 200 and a non-zero code here. */
export interface MiniMaxBaseResp {
  status_code?: number;
  status_msg?: string;
}

/** One stream event (SSE `data:`) or the whole non-stream answer. */
export interface MiniMaxSpeechEvent {
  data?: { audio?: string; status?: 1 | 2 } | null;
  extra_info?: Record<string, unknown>;
  trace_id?: string;
  base_resp?: MiniMaxBaseResp;
}

/** Newer gateways answer some errors with an HTTP error status and this body. */
export interface MiniMaxGatewayError {
  error?: { type?: string; message?: string; code?: number; http_code?: string | number };
  base_resp?: MiniMaxBaseResp;
}

/** MiniMax status codes the classifier compares against (platform.minimax.io error code table). */
export const MINIMAX_CODES = {
  UNKNOWN: 1000,
  TIMEOUT: 1001,
  RATE_LIMITED: 1002,
  AUTH_FAILED: 1004,
  INSUFFICIENT_BALANCE: 1008,
  INPUT_SENSITIVE: 1026,
  OUTPUT_SENSITIVE: 1027,
  QUOTA_EXHAUSTED: 1028,
  QUOTA_EXHAUSTED_PLAN: 1030,
  TOKEN_RATE_LIMITED: 1039,
  CONNECTION_LIMITED: 1041,
  INVISIBLE_CHARACTERS: 1042,
  INVALID_PARAMS: 2013,
  INVALID_API_KEY: 2049,
  VOICE_NOT_FOUND: 2054,
  MODEL_NOT_IN_PLAN: 2061,
  INVALID_VOICE_ID: 20132,
} as const;

/** POST /v1/get_voice answer. */
export interface MiniMaxVoiceList {
  system_voice?: Array<{ voice_id?: string; voice_name?: string; description?: string[] }>;
  voice_cloning?: Array<{ voice_id?: string; description?: string[]; created_time?: string }>;
  voice_generation?: Array<{ voice_id?: string; description?: string[]; created_time?: string }>;
  base_resp?: MiniMaxBaseResp;
}
