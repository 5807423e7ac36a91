// Benchmark, not a test: first-chunk latency and real-time factor of the built package (run `pnpm build` first).
// Usage: node bench/latency.mjs [rounds]
import { setTimeout as sleep } from 'node:timers/promises';
import { createLocalSynthesizer } from '../dist/index.js';

const rounds = Number(process.argv[2] ?? 30);
const SHORT = 'Hello, how can I help you today?';
const LONG = Array.from({ length: 12 }, (_, index) =>
  `Sentence number ${index + 1} of a longer passage, read out loud by the offline voice.`).join(' ');
// 24 kHz s16 mono PCM is 48,000 bytes per second; the MP3 is 48 kbps CBR, 6,000 bytes per second.
const BYTES_PER_SECOND = { pcm: 48_000, mp3: 6_000 };

async function measure(synthesizer, text, format) {
  const start = performance.now();
  let firstChunk;
  let bytes = 0;
  for await (const chunk of synthesizer.synthesize({ text, voice: 'en-us', format })) {
    firstChunk ??= performance.now() - start;
    bytes += chunk.byteLength;
  }
  const total = performance.now() - start;
  return { firstChunk, realTimeFactor: total / 1000 / (bytes / BYTES_PER_SECOND[format]) };
}

function percentile(values, fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

const coldSynthesizer = createLocalSynthesizer({ workers: 1 });
const cold = await measure(coldSynthesizer, SHORT, 'mp3');
console.log(`cold: mp3 request sent at start-up, first chunk after ${cold.firstChunk.toFixed(1)} ms`);
await coldSynthesizer.close();

const synthesizer = createLocalSynthesizer({ workers: 1 });
await sleep(4_000); // idle long enough for the built-in start-up warm-up to finish
for (const format of ['mp3', 'pcm']) {
  const firsts = [];
  for (let index = 0; index < 5; index++) firsts.push((await measure(synthesizer, SHORT, format)).firstChunk.toFixed(1));
  console.log(`after start-up warm-up: first 5 ${format} requests, first chunk ms: ${firsts.join(', ')}`);
}
for (let index = 0; index < 5; index++) await measure(synthesizer, LONG, 'mp3');
console.log(`steady state, ${rounds} rounds per row:`);

for (const format of ['pcm', 'mp3']) {
  const short = [];
  const long = [];
  for (let index = 0; index < rounds; index++) {
    short.push(await measure(synthesizer, SHORT, format));
    long.push(await measure(synthesizer, LONG, format));
  }
  const firstChunks = short.map((result) => result.firstChunk);
  const longFirst = long.map((result) => result.firstChunk);
  const factors = long.map((result) => result.realTimeFactor);
  console.log(
    `${format}: first chunk short sentence p50 ${percentile(firstChunks, 0.5).toFixed(1)} ms, ` +
      `p95 ${percentile(firstChunks, 0.95).toFixed(1)} ms; first chunk 12 sentences p50 ` +
      `${percentile(longFirst, 0.5).toFixed(1)} ms; real-time factor p50 ${percentile(factors, 0.5).toFixed(3)}`,
  );
}
await synthesizer.close();
