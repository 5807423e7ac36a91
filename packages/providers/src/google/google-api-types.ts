// Google Cloud Text-to-Speech v1 REST wire types (google/cloud/texttospeech/v1/cloud_tts.proto, JSON in
// camelCase), and the service account key file the router reads for OAuth.

/** AudioEncoding as JSON names it; with `$alt=json;enum-encoding=int` the numbers are sent instead. */
export const GOOGLE_AUDIO_ENCODINGS = { AUDIO_ENCODING_UNSPECIFIED: 0, LINEAR16: 1, MP3: 2, OGG_OPUS: 3, MULAW: 5, ALAW: 6, PCM: 7 } as const;
export type GoogleAudioEncoding = keyof typeof GOOGLE_AUDIO_ENCODINGS;

export const GOOGLE_SSML_GENDERS = { SSML_VOICE_GENDER_UNSPECIFIED: 0, MALE: 1, FEMALE: 2, NEUTRAL: 3 } as const;
export type GoogleSsmlGender = keyof typeof GOOGLE_SSML_GENDERS;

/** POST /v1/text:synthesize */
export interface GoogleSynthesizeRequest {
  input: { text: string } | { ssml: string } | { markup: string };
  voice: { languageCode: string; name?: string; ssmlGender?: GoogleSsmlGender };
  audioConfig: {
    audioEncoding: GoogleAudioEncoding;
    speakingRate?: number;
    pitch?: number;
    volumeGainDb?: number;
    sampleRateHertz?: number;
    effectsProfileId?: string[];
  };
}

/** The whole clip, base64, in one JSON object (LINEAR16 carries a WAV header). */
export interface GoogleSynthesizeResponse {
  audioContent: string;
}

/** GET /v1/voices: one list, no paging. */
export interface GoogleVoice {
  languageCodes: string[];
  name: string;
  ssmlGender: GoogleSsmlGender | number;
  naturalSampleRateHertz: number;
}

export interface GoogleListVoicesResponse {
  voices?: GoogleVoice[];
}

/** `{"error": {"code", "message", "status", "details"}}`: google.rpc.Status over HTTP. */
export interface GoogleErrorBody {
  error: { code: number; message: string; status: string; details?: unknown[] };
}

/** The fields of a service account key file (GOOGLE_APPLICATION_CREDENTIALS) the router uses. */
export interface GoogleServiceAccountKey {
  type: 'service_account';
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri: string;
  project_id?: string;
}

/** The OAuth 2.0 token endpoint's answer to a JWT bearer grant. */
export interface GoogleTokenResponse {
  access_token: string;
  expires_in: number;
  token_type: 'Bearer';
}
