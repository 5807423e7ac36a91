// Server-Sent Events bodies for the doubles of providers that stream base64 audio inside SSE JSON (Neuphonic,
// Smallest.ai live...): the tone's PCM cut into fixed-duration pieces, each wrapped in one whole event, looped
// like any other audio. `frameLengths` makes the server cut bodies on event boundaries, so every body parses.

import { pcmToneAudio, type LoopedAudio } from './tone-audio.js';

export interface EventStreamAudio {
  audio: LoopedAudio;
  /** Body bytes per second of speech, for sizing bodies like real speech. */
  bytesPerSecond: number;
}

const cache = new Map<string, EventStreamAudio>();

/**
 * `event` builds one event's text from the piece's base64 (e.g. `data: {"audio":"..."}\n\n`). `key` names the
 * builder so the buffer is built once per process; `piecesPerSecond` must divide the 2 s tone evenly.
 */
export function eventStreamToneAudio(key: string, sampleRate: number, event: (base64: string) => string, piecesPerSecond = 10): EventStreamAudio {
  const cacheKey = `${key}:${sampleRate}:${piecesPerSecond}`;
  let built = cache.get(cacheKey);
  if (!built) {
    const pcm = pcmToneAudio(sampleRate).buffer;
    const pieceBytes = (sampleRate * 2) / piecesPerSecond;
    if (!Number.isInteger(pieceBytes / 2) || pcm.length % pieceBytes !== 0) throw new Error('pieces must hold whole samples and tile the tone');
    const events: Buffer[] = [];
    for (let start = 0; start < pcm.length; start += pieceBytes) {
      events.push(Buffer.from(event(pcm.subarray(start, start + pieceBytes).toString('base64')), 'utf8'));
    }
    const buffer = Buffer.concat(events);
    const seconds = pcm.length / (sampleRate * 2);
    built = { audio: { buffer, frameLengths: events.map((part) => part.length) }, bytesPerSecond: buffer.length / seconds };
    cache.set(cacheKey, built);
  }
  return built;
}
