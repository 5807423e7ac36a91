// ElevenLabs' text-to-speech wire types (from the official SDK's request types and error shapes).

/** Open union: autocomplete for known ids without refusing new ones. */
export type ElevenLabsModelId =
  | 'eleven_flash_v2_5'
  | 'eleven_turbo_v2_5'
  | 'eleven_multilingual_v2'
  | 'eleven_v3'
  | 'eleven_flash_v2'
  | (string & {});

/** The two output formats the router asks for; ElevenLabs offers many more. */
export type ElevenLabsOutputFormat =
  | 'mp3_22050_32' | 'mp3_24000_48' | 'mp3_44100_32' | 'mp3_44100_64' | 'mp3_44100_96' | 'mp3_44100_128' | 'mp3_44100_192'
  | 'pcm_24000';

export interface ElevenLabsVoiceSettings {
  stability?: number;
  similarity_boost?: number;
  style?: number;
  use_speaker_boost?: boolean;
  speed?: number;
}

export interface ElevenLabsSpeechRequestBody {
  text: string;
  model_id: ElevenLabsModelId;
  voice_settings?: ElevenLabsVoiceSettings;
  language_code?: string;
  seed?: number;
  previous_text?: string;
  next_text?: string;
  previous_request_ids?: string[];
  next_request_ids?: string[];
  apply_text_normalization?: 'auto' | 'on' | 'off';
  use_pvc_as_ivc?: boolean;
}

/** `detail` is an object for API errors, an array for FastAPI validation (422), a string for routing 404s. */
export interface ElevenLabsErrorBody {
  detail?:
    | { status?: string; code?: string; type?: string; message?: string; request_id?: string }
    | Array<{ type?: string; loc?: Array<string | number>; msg?: string }>
    | string;
}
