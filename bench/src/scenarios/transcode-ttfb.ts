// Scenario 8: what converting the upstream's audio costs the first byte. One Cartesia double, two adapters
// built from Cartesia's real mapping: one asks for MP3 (served as is), the other for a streaming WAV at
// 48 kHz that the router resamples to 24 kHz and encodes to MP3 itself. Time to first byte is measured at
// the adapter (request sent → first output chunk in hand), alternating the two, so the difference is the
// conversion's cost; the router's HTTP layer in front adds the same to both. The double paces its body like
// the other scenarios' upstream (8 KB every 50 ms), so the run also shows the first byte leaves before
// the upstream body ends: the count of requests whose upstream had already finished must stay 0.
import { createOutputPipeline, type OutputDescription } from '@voice-router/audio';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeProvider } from '@voice-router/provider-fakes';
import {
  buildCartesiaSpeechRequest,
  cartesiaDescriptor,
  classifyCartesiaError,
  createHttpSpeechAdapter,
  type HttpProviderDefinition,
  type SpeechAdapter,
  type SpeechInput,
} from '@voice-router/providers';
import { UPSTREAM_PACING } from '../options.js';
import { percentiles, round } from '../report/stats.js';

export interface ConversionWorkRow {
  target: 'mp3' | 'pcm';
  n: number;
  /** Time from one upstream chunk (8 KB of 48 kHz WAV, header included) entering the pipeline to its first output. */
  p50: number;
  p99: number;
}

export interface TranscodeTtfbResult {
  rows: TranscodeTtfbRow[];
  /** The conversion's own work before its first output byte, without network or scheduling of two processes. */
  work: ConversionWorkRow[];
}

export interface TranscodeTtfbRow {
  system: 'mp3-direct' | 'wav48k-to-mp3' | 'wav48k-to-pcm';
  n: number;
  p50: number;
  p90: number;
  p99: number;
  /** p50 minus the direct MP3's p50. */
  addedP50: number;
  /** Requests whose upstream body had completed before the first output byte (whole-clip buffering). */
  upstreamFinishedFirst: number;
}

const WAV_48K: OutputDescription = { container: 'wav' };

function adapterFor(baseUrl: string, apiKey: string, wav: boolean): SpeechAdapter {
  const definition: HttpProviderDefinition = {
    id: 'cartesia',
    defaultBaseUrl: 'https://api.cartesia.ai',
    descriptor: cartesiaDescriptor,
    classifyError: classifyCartesiaError,
    buildRequest(input, credentials) {
      const request = buildCartesiaSpeechRequest(input, credentials);
      if (!wav) return request;
      const body = { ...(JSON.parse(request.body) as object), output_format: { container: 'wav', encoding: 'pcm_s16le', sample_rate: 48_000 } };
      return { ...request, body: JSON.stringify(body), output: WAV_48K };
    },
  };
  return createHttpSpeechAdapter(definition, { apiKey, baseUrl, firstByteTimeoutMs: 10_000 });
}

/** A streaming WAV header for 48 kHz mono s16le, then 8 KB of a tone: what the double's first chunk holds. */
function firstWavChunk(): Uint8Array {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(0xffffffff, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(48_000, 24);
  header.writeUInt32LE(96_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(0xffffffff, 40);
  const audio = Buffer.alloc(8192);
  for (let index = 0; index < 4096; index++) audio.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / 48_000)), index * 2);
  return Buffer.concat([header, audio]);
}

async function measureConversionWork(target: 'mp3' | 'pcm', runs: number): Promise<ConversionWorkRow> {
  const chunk = firstWavChunk();
  const times: number[] = [];
  // Warm-up: a server that converts audio has lamejs and the resampler compiled by the JIT; a cold
  // process interprets them for its first few hundred frames (the first request pays tens of ms).
  const warm = createOutputPipeline(WAV_48K, target);
  warm.push(chunk);
  for (let index = 0; index < 100; index++) warm.push(chunk.subarray(44));
  // Untimed first runs: the per-encoder code paths (lamejs' first-frame set-up) are JIT-compiled only after
  // a few dozen encoders, which a converting server is long past.
  const untimed = 40;
  for (let index = 0; index < runs + untimed; index++) {
    // A pause between runs, as between requests on one stream: the spare MP3 encoder is rebuilt off the
    // request path and its garbage collected. Back to back (5 ms apart) on a saturated 2-core machine the
    // rebuild and the collector compete with the next conversion and the figure is several times higher.
    await sleep(30);
    async function* upstream() {
      yield chunk;
    }
    const started = performance.now();
    const output = createOutputPipeline(WAV_48K, target).transform(upstream());
    const first = await output.next();
    if (index >= untimed) times.push(performance.now() - started);
    if (first.done) throw new Error('conversion produced nothing from 8 KB of audio');
    await output.return();
  }
  const stats = percentiles(times);
  return { target, n: stats.n, p50: round(stats.p50, 3), p99: round(stats.p99, 3) };
}

export async function runTranscodeTtfb(requests: number, log: (line: string) => void): Promise<TranscodeTtfbResult> {
  const work = [await measureConversionWork('mp3', requests * 2), await measureConversionWork('pcm', requests * 2)];
  for (const row of work) log(`  conversion work before the first byte (WAV 48 kHz → ${row.target}): n=${row.n} p50=${row.p50} p99=${row.p99} ms`);
  return { rows: await runThroughAdapters(requests, log), work };
}

async function runThroughAdapters(requests: number, log: (line: string) => void): Promise<TranscodeTtfbRow[]> {
  const fake = await startFakeProvider('cartesia', { ...UPSTREAM_PACING, recordRequests: true });
  const direct = adapterFor(fake.baseUrl, fake.apiKey, false);
  const transcoding = adapterFor(fake.baseUrl, fake.apiKey, true);
  const systems = [
    { system: 'mp3-direct' as const, adapter: direct, format: 'mp3' as const },
    { system: 'wav48k-to-mp3' as const, adapter: transcoding, format: 'mp3' as const },
    { system: 'wav48k-to-pcm' as const, adapter: transcoding, format: 'pcm' as const },
  ];
  const samples = new Map(systems.map((entry) => [entry.system, [] as number[]]));
  const finishedFirst = new Map(systems.map((entry) => [entry.system, 0]));
  const input = (format: 'mp3' | 'pcm'): SpeechInput => ({
    modelId: 'sonic-3', voice: '694f9389-aac1-45b6-b726-9d9369183238', text: 'The quick brown fox jumps over the lazy dog, twice.', format, providerOptions: {},
  });
  try {
    // Warm-up: JIT (lamejs needs a few dozen encoders), connection pool, the double's audio buffers.
    for (const entry of systems) for (let index = 0; index < 3; index++) await drain(entry.adapter, input(entry.format));
    for (let index = 0; index < 30; index++) {
      for (const entry of systems) {
        const result = await entry.adapter.synthesize(input(entry.format), { signal: new AbortController().signal });
        await result.audio[Symbol.asyncIterator]().return?.();
      }
    }
    for (let index = 0; index < requests; index++) {
      for (const entry of index % 2 === 0 ? systems : [...systems].reverse()) {
        const started = performance.now();
        const result = await entry.adapter.synthesize(input(entry.format), { signal: new AbortController().signal });
        const iterator = result.audio[Symbol.asyncIterator]();
        const first = await iterator.next();
        const ttfb = performance.now() - started;
        if (first.done) throw new Error(`${entry.system}: no audio`);
        const record = fake.requests.at(-1)!;
        if (record.outcome !== 'pending') finishedFirst.set(entry.system, finishedFirst.get(entry.system)! + 1);
        samples.get(entry.system)!.push(ttfb);
        // Cancel the rest (the upstream request with it): only the first byte is measured here.
        await iterator.return?.();
        fake.requests.length = 0;
      }
    }
  } finally {
    await Promise.all([direct.close(), transcoding.close()]);
    await fake.close();
  }
  const baseline = percentiles(samples.get('mp3-direct')!).p50;
  return systems.map(({ system }) => {
    const stats = percentiles(samples.get(system)!);
    const row: TranscodeTtfbRow = {
      system, n: stats.n, p50: round(stats.p50, 3), p90: round(stats.p90, 3), p99: round(stats.p99, 3),
      addedP50: round(stats.p50 - baseline, 3), upstreamFinishedFirst: finishedFirst.get(system)!,
    };
    log(`  transcode ttfb ${system}: n=${row.n} p50=${row.p50} p99=${row.p99} ms, added p50 ${row.addedP50} ms, upstream finished first ${row.upstreamFinishedFirst}×`);
    return row;
  });
}

async function drain(adapter: SpeechAdapter, input: SpeechInput): Promise<void> {
  const result = await adapter.synthesize(input, { signal: new AbortController().signal });
  for await (const _chunk of result.audio) {
    // discard
  }
}
