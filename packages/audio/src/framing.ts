// Unwraps the audio bytes from however an upstream frames them (see `Framing`). Every decoder is
// incremental: input may be split at any byte, output is produced as soon as a whole unit arrived.

import { AudioFormatError } from './errors.js';
import { readFieldPath } from './field-path.js';
import { JsonDocumentAudioDecoder } from './json-document.js';
import type { Framing, TextAudioEncoding } from './output-description.js';
import { decodeTextAudio, StreamingTextDecoder } from './text-decoders.js';

export interface FramingDecoder {
  /** A body chunk (or, for `messages`, one whole message). Returns the audio bytes it completed. */
  push(chunk: Uint8Array | string): Uint8Array[];
  /** The body ended: returns what is left, or throws if it ended inside a unit that cannot be partial. */
  end(): Uint8Array[];
}

/** Splits UTF-8 text into lines (LF, CRLF or CR) across chunk boundaries. */
class LineSplitter {
  readonly #decoder = new TextDecoder('utf-8');
  #partial = '';
  #pendingCarriageReturn = false;

  push(chunk: Uint8Array | string): string[] {
    return this.#split(typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true }));
  }

  end(): string[] {
    const lines = this.#split(this.#decoder.decode());
    if (this.#partial.length > 0) lines.push(this.#partial);
    this.#partial = '';
    return lines;
  }

  #split(text: string): string[] {
    let start = 0;
    const lines: string[] = [];
    if (this.#pendingCarriageReturn && text.startsWith('\n')) start = 1;
    this.#pendingCarriageReturn = false;
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code !== 10 && code !== 13) continue;
      lines.push(this.#partial + text.slice(start, index));
      this.#partial = '';
      if (code === 13) {
        if (index + 1 === text.length) this.#pendingCarriageReturn = true;
        else if (text.charCodeAt(index + 1) === 10) index++;
      }
      start = index + 1;
    }
    this.#partial += text.slice(start);
    return lines;
  }
}

interface JsonAudioOptions {
  audioField: string;
  encoding?: TextAudioEncoding;
  errorField?: string;
}

/** Audio out of one JSON message; undefined when the message carries none (metadata, progress, done). */
function audioFromJson(text: string, options: JsonAudioOptions): Uint8Array | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AudioFormatError('a streamed message is not valid JSON');
  }
  if (options.errorField !== undefined) {
    const failure = readFieldPath(parsed, options.errorField);
    // A status code of 0 is a success report (MiniMax's `base_resp.status_code` on every event).
    if (failure !== undefined && failure !== null && failure !== false && failure !== 0) {
      throw new AudioFormatError('the upstream reported an error mid-stream');
    }
  }
  const audio = readFieldPath(parsed, options.audioField);
  if (audio === undefined || audio === null || audio === '') return undefined;
  if (typeof audio !== 'string') throw new AudioFormatError('the audio field is not a string');
  return decodeTextAudio(audio, options.encoding ?? 'base64');
}

class RawDecoder implements FramingDecoder {
  push(chunk: Uint8Array | string): Uint8Array[] {
    if (typeof chunk === 'string') throw new AudioFormatError('raw framing received a text message');
    return [chunk];
  }

  end(): Uint8Array[] {
    return [];
  }
}

class EncodedTextDecoder implements FramingDecoder {
  readonly #text = new TextDecoder('utf-8');
  readonly #decoder: StreamingTextDecoder;

  constructor(encoding: TextAudioEncoding) {
    this.#decoder = new StreamingTextDecoder(encoding);
  }

  push(chunk: Uint8Array | string): Uint8Array[] {
    return [this.#decoder.push(typeof chunk === 'string' ? chunk : this.#text.decode(chunk, { stream: true }))];
  }

  end(): Uint8Array[] {
    return [this.#decoder.push(this.#text.decode()), this.#decoder.end()];
  }
}

class NdjsonDecoder implements FramingDecoder {
  readonly #lines = new LineSplitter();

  constructor(private readonly options: JsonAudioOptions) {}

  push(chunk: Uint8Array | string): Uint8Array[] {
    return this.#decode(this.#lines.push(chunk));
  }

  end(): Uint8Array[] {
    return this.#decode(this.#lines.end());
  }

  #decode(lines: string[]): Uint8Array[] {
    const audio: Uint8Array[] = [];
    for (const line of lines) {
      if (line.trim() === '') continue;
      const bytes = audioFromJson(line, this.options);
      if (bytes) audio.push(bytes);
    }
    return audio;
  }
}

/** Server-Sent Events as the WHATWG spec parses them: `data:` lines joined by LF, a blank line dispatches. */
class SseDecoder implements FramingDecoder {
  readonly #lines = new LineSplitter();
  #data: string[] = [];
  #event = '';

  constructor(private readonly framing: Extract<Framing, { kind: 'sse' }>) {}

  push(chunk: Uint8Array | string): Uint8Array[] {
    return this.#decode(this.#lines.push(chunk));
  }

  end(): Uint8Array[] {
    const audio = this.#decode(this.#lines.end());
    // A stream may end without the final blank line; the last event still counts.
    const last = this.#dispatch();
    if (last) audio.push(last);
    return audio;
  }

  #decode(lines: string[]): Uint8Array[] {
    const audio: Uint8Array[] = [];
    for (const line of lines) {
      if (line === '') {
        const bytes = this.#dispatch();
        if (bytes) audio.push(bytes);
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.#data.push(value);
      else if (field === 'event') this.#event = value;
    }
    return audio;
  }

  #dispatch(): Uint8Array | undefined {
    const data = this.#data.join('\n');
    const event = this.#event || 'message';
    const hadData = this.#data.length > 0;
    this.#data = [];
    this.#event = '';
    if (!hadData || data === '[DONE]') return undefined;
    if (event === 'error') throw new AudioFormatError('the upstream reported an error mid-stream');
    if (this.framing.events && !this.framing.events.includes(event)) return undefined;
    const encoding = this.framing.encoding ?? 'base64';
    if (this.framing.audioField === undefined) return data.trim() === '' ? undefined : decodeTextAudio(data, encoding);
    return audioFromJson(data, { audioField: this.framing.audioField, encoding, errorField: this.framing.errorField });
  }
}

class MessageDecoder implements FramingDecoder {
  constructor(private readonly options: JsonAudioOptions) {}

  push(message: Uint8Array | string): Uint8Array[] {
    if (typeof message !== 'string') return [message];
    const bytes = audioFromJson(message, this.options);
    return bytes ? [bytes] : [];
  }

  end(): Uint8Array[] {
    return [];
  }
}

export function createFramingDecoder(framing: Framing = { kind: 'raw' }): FramingDecoder {
  switch (framing.kind) {
    case 'raw':
      return new RawDecoder();
    case 'base64':
    case 'hex':
      return new EncodedTextDecoder(framing.kind);
    case 'ndjson':
      return new NdjsonDecoder(framing);
    case 'sse':
      return new SseDecoder(framing);
    case 'messages':
      return new MessageDecoder(framing);
    case 'json':
      return new JsonDocumentAudioDecoder(framing);
  }
}
