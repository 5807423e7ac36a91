// Base64 and hex text to bytes, whole (one JSON field) or streaming (a body of encoded text split anywhere).

import { AudioFormatError } from './errors.js';
import type { TextAudioEncoding } from './output-description.js';

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const HEX = /^[0-9a-fA-F]*$/;

/** Decodes one complete encoded field. Throws AudioFormatError on anything that is not the encoding. */
export function decodeTextAudio(text: string, encoding: TextAudioEncoding): Uint8Array {
  const compact = text.replace(/\s+/g, '');
  if (encoding === 'hex') {
    if (compact.length % 2 !== 0 || !HEX.test(compact)) throw new AudioFormatError('audio field is not valid hex');
    return Buffer.from(compact, 'hex');
  }
  if (!BASE64.test(compact) || compact.length % 4 === 1) throw new AudioFormatError('audio field is not valid base64');
  // Buffer accepts both the standard and the URL-safe alphabet.
  return Buffer.from(compact, 'base64');
}

/** A body that is one long encoded text: decodes whole quanta as they arrive, keeps the remainder. */
export class StreamingTextDecoder {
  #pending = '';
  readonly #quantum: number;

  constructor(private readonly encoding: TextAudioEncoding) {
    this.#quantum = encoding === 'hex' ? 2 : 4;
  }

  push(text: string): Uint8Array {
    const available = this.#pending + text.replace(/\s+/g, '');
    const usable = available.length - (available.length % this.#quantum);
    this.#pending = available.slice(usable);
    return usable === 0 ? new Uint8Array(0) : decodeTextAudio(available.slice(0, usable), this.encoding);
  }

  end(): Uint8Array {
    const rest = this.#pending;
    this.#pending = '';
    // Unpadded base64 may end with 2 or 3 characters; a single leftover character is never valid.
    return rest.length === 0 ? new Uint8Array(0) : decodeTextAudio(rest, this.encoding);
  }
}
