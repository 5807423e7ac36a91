// Rime's POST /v1/rime-tts wire types (from docs.rime.ai's HTTP API pages; Rime's Node.js SDK, in alpha, speaks gRPC instead).

/** Open union: autocomplete for known ids without refusing new ones. */
export type RimeModelId = 'arcana' | 'mistv3' | 'mistv2' | 'coda' | (string & {});

/** The response format is chosen by the Accept header, not the body. */
export type RimeAccept = 'audio/mp3' | 'audio/mpeg' | 'audio/pcm' | 'audio/wav' | 'audio/x-mulaw' | 'audio/ogg;codecs=opus' | 'audio/webm;codecs=opus';

export interface RimeSpeechRequestBody {
  speaker: string;
  text: string;
  modelId: RimeModelId;
  lang?: string;
  samplingRate?: number;
  /** Mist v2: speaking pace, greater than 1 is slower. */
  speedAlpha?: number;
  /** Mist v3 and Coda: duration scale, greater than 1 is slower. */
  timeScaleFactor?: number;
  /** Arcana sampling knobs. */
  temperature?: number;
  top_p?: number;
  repetition_penalty?: number;
  /** Mist: trade quality for latency. */
  reduceLatency?: boolean;
}

/** Rime's error body is not documented; the double and the classifier assume `{message}` and read no text. */
export interface RimeErrorBody {
  message?: string;
}
