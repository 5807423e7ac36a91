// Smallest.ai Waves wire types: POST /waves/v1/tts (Lightning v3.1, binary audio) and
// GET /waves/v1/{model}/get_voices (the official smallest-python-sdk's TtsRequest and GetVoicesWavesResponse).

export type SmallestModelId = 'lightning_v3.1' | 'lightning_v3.1_pro' | (string & {});

export type SmallestOutputFormat = 'pcm' | 'mp3' | 'wav' | 'ulaw' | 'alaw';

export interface SmallestTtsRequestBody {
  text: string;
  voice_id: string;
  model?: SmallestModelId;
  sample_rate?: number;
  /** 0.5 to 2. */
  speed?: number;
  /** ISO 639-1 or `auto`. */
  language?: string;
  number_pronunciation_language?: string;
  /** The server default is pcm. */
  output_format?: SmallestOutputFormat;
  pronunciation_dicts?: string[];
}

/** GET /waves/v1/lightning-v3.1/get_voices entry (camelCase on the wire). */
export interface SmallestVoice {
  voiceId: string;
  displayName: string;
  tags?: { language?: string[]; accent?: string; gender?: string; age?: string; emotions?: string[]; usecases?: string[] };
}

export interface SmallestErrorBody {
  message?: string;
}
