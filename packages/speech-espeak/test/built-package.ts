// Loads the compiled package (dist/index.js), typed by the source, so tests exercise the real worker file.
import type * as SpeechEspeak from '../src/index.js';

export const builtPackageUrl = new URL('../dist/index.js', import.meta.url);

export async function loadBuiltPackage(): Promise<typeof SpeechEspeak> {
  return (await import(builtPackageUrl.href)) as typeof SpeechEspeak;
}

export async function collect(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

export function concatenate(chunks: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Root mean square of s16le samples, on the 0..32768 scale. */
export function pcmRms(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let sum = 0;
  for (let offset = 0; offset + 1 < bytes.byteLength; offset += 2) sum += view.getInt16(offset, true) ** 2;
  return Math.sqrt(sum / Math.max(1, bytes.byteLength / 2));
}
