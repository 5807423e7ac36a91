// Builds test WAV files: any encoding, any channel count, optional extra chunks and a streaming data size.

export interface WavOptions {
  sampleRate: number;
  channels: number;
  /** 1 = PCM, 3 = float, 6 = A-law, 7 = mu-law, 0xfffe = extensible (wrapping `subFormat`). */
  formatTag: number;
  bitsPerSample: number;
  subFormat?: number;
  /** Written as the data chunk's size; default the real size. 0xffffffff or 0 for a streaming WAV. */
  dataSize?: number;
  /** Chunks (id, body) before fmt, between fmt and data, and after data. */
  before?: Array<[string, Uint8Array]>;
  between?: Array<[string, Uint8Array]>;
  after?: Array<[string, Uint8Array]>;
  riffId?: 'RIFF' | 'RF64';
}

function chunk(id: string, body: Uint8Array, size = body.length): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'ascii');
  header.writeUInt32LE(size >>> 0, 4);
  return Buffer.concat([header, body, Buffer.alloc(body.length % 2)]);
}

export function buildWav(data: Uint8Array, options: WavOptions): Buffer {
  const extensible = options.formatTag === 0xfffe;
  const fmt = Buffer.alloc(extensible ? 40 : 16);
  const blockAlign = (options.channels * options.bitsPerSample) / 8;
  fmt.writeUInt16LE(options.formatTag, 0);
  fmt.writeUInt16LE(options.channels, 2);
  fmt.writeUInt32LE(options.sampleRate, 4);
  fmt.writeUInt32LE(options.sampleRate * blockAlign, 8);
  fmt.writeUInt16LE(blockAlign, 12);
  fmt.writeUInt16LE(options.bitsPerSample, 14);
  if (extensible) {
    fmt.writeUInt16LE(22, 16);
    fmt.writeUInt16LE(options.bitsPerSample, 18);
    fmt.writeUInt16LE(options.subFormat ?? 1, 24);
  }
  const body = Buffer.concat([
    Buffer.from('WAVE', 'ascii'),
    ...(options.before ?? []).map(([id, bytes]) => chunk(id, bytes)),
    chunk('fmt ', fmt),
    ...(options.between ?? []).map(([id, bytes]) => chunk(id, bytes)),
    chunk('data', data, options.dataSize ?? data.length),
    ...(options.after ?? []).map(([id, bytes]) => chunk(id, bytes)),
  ]);
  const header = Buffer.alloc(8);
  header.write(options.riffId ?? 'RIFF', 0, 'ascii');
  header.writeUInt32LE(options.dataSize === undefined ? body.length : 0xffffffff, 4);
  return Buffer.concat([header, body]);
}

/** A sine tone as interleaved s16le (the same tone on every channel unless `perChannel` says otherwise). */
export function s16Tone(hertz: number, sampleRate: number, seconds: number, channels = 1, amplitude = 8000): Buffer {
  const frames = Math.round(sampleRate * seconds);
  const bytes = Buffer.alloc(frames * channels * 2);
  for (let frame = 0; frame < frames; frame++) {
    const value = Math.round(amplitude * Math.sin((2 * Math.PI * hertz * frame) / sampleRate));
    for (let channel = 0; channel < channels; channel++) bytes.writeInt16LE(value, (frame * channels + channel) * 2);
  }
  return bytes;
}

/** Feeds `bytes` in ragged pieces (sizes cycling through `sizes`). */
export function* splitRagged(bytes: Uint8Array, sizes: number[] = [1, 3, 44, 7, 1000, 2, 4096]): Generator<Uint8Array> {
  let offset = 0;
  let turn = 0;
  while (offset < bytes.length) {
    const size = sizes[turn++ % sizes.length]!;
    yield bytes.subarray(offset, offset + size);
    offset += size;
  }
}
