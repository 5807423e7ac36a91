// Azure AI Speech REST text to speech wire types, as the "Text to speech REST API" reference names them
// (POST /cognitiveservices/v1 with an SSML body; GET /cognitiveservices/voices/list).

/** `X-Microsoft-OutputFormat` values the router uses (streaming-capable, no RIFF header). */
export const AZURE_MP3_FORMATS = [
  'audio-16khz-32kbitrate-mono-mp3',
  'audio-16khz-64kbitrate-mono-mp3',
  'audio-16khz-128kbitrate-mono-mp3',
  'audio-24khz-48kbitrate-mono-mp3',
  'audio-24khz-96kbitrate-mono-mp3',
  'audio-24khz-160kbitrate-mono-mp3',
  'audio-48khz-96kbitrate-mono-mp3',
  'audio-48khz-192kbitrate-mono-mp3',
] as const;
export type AzureMp3Format = (typeof AZURE_MP3_FORMATS)[number];

/** The router's pcm: s16le, 24 kHz, mono, headerless. */
export const AZURE_PCM_FORMAT = 'raw-24khz-16bit-mono-pcm';

/** Sample rate of an `audio-<rate>khz-...-mp3` format. */
export function azureMp3SampleRate(format: AzureMp3Format): number {
  return Number(/^audio-(\d+)khz-/.exec(format)![1]) * 1000;
}

/** One entry of GET /cognitiveservices/voices/list (a bare JSON array, no paging). */
export interface AzureVoiceListEntry {
  Name: string;
  DisplayName: string;
  LocalName: string;
  ShortName: string;
  Gender: 'Female' | 'Male' | 'Neutral' | (string & {});
  Locale: string;
  LocaleName: string;
  StyleList?: string[];
  SampleRateHertz: string;
  VoiceType: 'Neural' | 'NeuralHD' | (string & {});
  Status: 'GA' | 'Preview' | (string & {});
  WordsPerMinute?: string;
  SecondaryLocaleList?: string[];
  RolePlayList?: string[];
  ExtendedPropertyMap?: Record<string, string>;
}
