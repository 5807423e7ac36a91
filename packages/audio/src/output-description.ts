// What an upstream sends back, described as data: how the bytes are framed on the wire, what container
// they are in, and (for headerless PCM) the sample format. The pipeline turns any of these into the
// router's two output formats.

/** How an encoded audio field inside a text message is written. */
export type TextAudioEncoding = 'base64' | 'hex';

/**
 * How audio bytes travel inside the response body.
 * - `raw`: the body is the audio.
 * - `base64` / `hex`: the body is one long text of encoded audio (whitespace ignored).
 * - `ndjson`: one JSON object per line; `audioField` (a dotted path such as `data.audio`) holds encoded audio.
 * - `sse`: Server-Sent Events; each event's data is the encoded audio itself, or JSON holding it at `audioField`.
 * - `json`: the body is ONE JSON object whose top-level `audioField` holds the whole clip as encoded text
 *   (e.g. `{"audioContent": "<base64>"}`); decoded while it streams, whatever the object's whitespace.
 * - `messages`: each chunk is one whole WebSocket-style message: a string is a JSON text message holding
 *   `audioField`, a byte array is a binary message carrying raw audio.
 *
 * Objects without the audio field (progress, timestamps, `done`) are skipped. `errorField`: a dotted path
 * whose presence (non-null, not false, not 0) means the upstream reported a failure mid-stream; 0 is a status
 * code reporting success (`base_resp.status_code`). `[DONE]` SSE data is skipped.
 */
export type Framing =
  | { kind: 'raw' }
  | { kind: 'base64' }
  | { kind: 'hex' }
  | { kind: 'ndjson'; audioField: string; encoding?: TextAudioEncoding; errorField?: string }
  | { kind: 'sse'; audioField?: string; encoding?: TextAudioEncoding; errorField?: string; events?: string[] }
  | { kind: 'messages'; audioField: string; encoding?: TextAudioEncoding; errorField?: string }
  | { kind: 'json'; audioField: string; encoding?: TextAudioEncoding };

/** Sample encodings of headerless PCM (WAV files carry their own in the fmt chunk). */
export type PcmEncoding = 's16le' | 's16be' | 's24le' | 's32le' | 'f32le' | 'u8' | 'mulaw' | 'alaw';

export type OutputDescription =
  | { framing?: Framing; container: 'mp3' }
  | { framing?: Framing; container: 'wav' }
  | { framing?: Framing; container: 'raw'; encoding: PcmEncoding; sampleRate: number; channels?: number };

/** The router's formats: mp3, or pcm = s16le, 24,000 Hz, mono, no header. */
export type TargetFormat = 'mp3' | 'pcm';

export const TARGET_SAMPLE_RATE = 24_000;
