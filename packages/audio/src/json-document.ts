// Streams the audio out of ONE JSON document whose top-level field holds the whole clip as encoded text
// (Google's `{"audioContent": "<base64>"}`), pretty-printed or not. The document is scanned as it arrives and
// the field's characters are decoded as soon as whole quanta are in, so the first audio bytes leave before the
// upstream finishes sending; nothing but the current quantum is buffered.

import { AudioFormatError } from './errors.js';
import type { TextAudioEncoding } from './output-description.js';
import { StreamingTextDecoder } from './text-decoders.js';

type State = 'value' | 'string' | 'audio' | 'done';
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '', f: '', n: '', r: '', t: '' };

export class JsonDocumentAudioDecoder {
  readonly #text = new TextDecoder('utf-8');
  readonly #audio: StreamingTextDecoder;
  readonly #field: string;
  #state: State = 'value';
  /** Open containers: `{` or `[`. */
  readonly #stack: string[] = [];
  /** A top-level key is expected next (after `{` or `,` in the root object). */
  #expectKey = false;
  #collectingKey = false;
  #key = '';
  #lastKey: string | undefined;
  /** The root object's `field` key was read and its `:` seen: the next string is the audio. */
  #audioNext = false;
  #escape = false;
  /** Hex digits of a pending `\uXXXX` escape (in a string or in the audio). */
  #unicode: string | undefined;
  #foundAudio = false;
  #started = false;

  constructor(options: { audioField: string; encoding?: TextAudioEncoding }) {
    this.#field = options.audioField;
    this.#audio = new StreamingTextDecoder(options.encoding ?? 'base64');
  }

  push(chunk: Uint8Array | string): Uint8Array[] {
    return this.#scan(typeof chunk === 'string' ? chunk : this.#text.decode(chunk, { stream: true }));
  }

  end(): Uint8Array[] {
    const audio = this.#scan(this.#text.decode());
    if (this.#state !== 'done') throw new AudioFormatError('the body ended inside its JSON document');
    if (!this.#foundAudio) throw new AudioFormatError('the JSON body holds no audio field');
    audio.push(this.#audio.end());
    return audio.filter((bytes) => bytes.length > 0);
  }

  #scan(text: string): Uint8Array[] {
    const audio: Uint8Array[] = [];
    let index = 0;
    while (index < text.length) {
      if (this.#state === 'audio') {
        index = this.#scanAudio(text, index, audio);
        continue;
      }
      const character = text[index]!;
      index += 1;
      if (this.#state === 'string') this.#stringCharacter(character);
      else if (this.#state === 'value') this.#structural(character);
      else if (!/\s/.test(character)) throw new AudioFormatError('content after the JSON document');
    }
    return audio.filter((bytes) => bytes.length > 0);
  }

  /** Copies the audio string's characters to the decoder up to its closing quote, resolving escapes. */
  #scanAudio(text: string, start: number, audio: Uint8Array[]): number {
    let index = start;
    let plain = '';
    while (index < text.length) {
      const character = text[index]!;
      index += 1;
      if (this.#unicode !== undefined) {
        this.#unicode += character;
        if (this.#unicode.length === 4) {
          plain += String.fromCharCode(Number.parseInt(this.#unicode, 16));
          this.#unicode = undefined;
        }
      } else if (this.#escape) {
        this.#escape = false;
        if (character === 'u') this.#unicode = '';
        else if (Object.hasOwn(SIMPLE_ESCAPES, character)) plain += SIMPLE_ESCAPES[character];
        else throw new AudioFormatError('invalid escape in the audio field');
      } else if (character === '\\') this.#escape = true;
      else if (character === '"') {
        this.#state = 'value';
        break;
      } else {
        // Take the run of ordinary characters at once.
        let end = index;
        while (end < text.length && text[end] !== '"' && text[end] !== '\\') end += 1;
        plain += character + text.slice(index, end);
        index = end;
      }
    }
    audio.push(this.#audio.push(plain));
    return index;
  }

  #stringCharacter(character: string): void {
    if (this.#unicode !== undefined) {
      this.#unicode += character;
      if (this.#unicode.length === 4) {
        if (this.#collectingKey) this.#key += String.fromCharCode(Number.parseInt(this.#unicode, 16));
        this.#unicode = undefined;
      }
    } else if (this.#escape) {
      this.#escape = false;
      if (character === 'u') this.#unicode = '';
      else if (this.#collectingKey) this.#key += SIMPLE_ESCAPES[character] ?? character;
    } else if (character === '\\') this.#escape = true;
    else if (character === '"') {
      this.#state = 'value';
      if (this.#collectingKey) {
        this.#collectingKey = false;
        this.#lastKey = this.#key;
      }
    } else if (this.#collectingKey && this.#key.length < 256) this.#key += character;
  }

  #structural(character: string): void {
    if (/\s/.test(character)) return;
    if (!this.#started) {
      if (character !== '{') throw new AudioFormatError('the body is not a JSON object');
      this.#started = true;
    }
    const inRootObject = this.#stack.length === 1 && this.#stack[0] === '{';
    if (this.#audioNext) {
      this.#audioNext = false;
      if (character === '"') {
        this.#state = 'audio';
        this.#foundAudio = true;
        return;
      }
    }
    switch (character) {
      case '"':
        this.#state = 'string';
        this.#collectingKey = inRootObject && this.#expectKey;
        this.#key = '';
        this.#expectKey = false;
        return;
      case '{':
      case '[':
        this.#stack.push(character);
        this.#expectKey = character === '{' && this.#stack.length === 1;
        return;
      case '}':
      case ']':
        if (this.#stack.pop() !== (character === '}' ? '{' : '[')) throw new AudioFormatError('the JSON body is not well-formed');
        if (this.#stack.length === 0) this.#state = 'done';
        return;
      case ',':
        if (inRootObject) this.#expectKey = true;
        return;
      case ':':
        if (inRootObject && this.#lastKey === this.#field) this.#audioNext = true;
        this.#lastKey = undefined;
        return;
      default:
        // Numbers, true, false, null: nothing to track.
        return;
    }
  }
}
