// The fake speech provider as its own process, so its CPU is its own and not the load generator's.
// All three provider fakes on one port; paced like a streaming provider. Announces its address as JSON.
import { parseArgs } from 'node:util';
import { startFakeProviders } from '@voice-router/provider-fakes';

const { values } = parseArgs({
  options: {
    'first-byte-delay-ms': { type: 'string', default: '0' },
    'chunk-bytes': { type: 'string', default: '8192' },
    'chunk-interval-ms': { type: 'string', default: '0' },
  },
});
const fake = await startFakeProviders({
  firstByteDelayMs: Number(values['first-byte-delay-ms']),
  chunkBytes: Number(values['chunk-bytes']),
  chunkIntervalMs: Number(values['chunk-interval-ms']),
  // A benchmark serves hundreds of thousands of requests: keep no per-request records.
  recordRequests: false,
});
// `baseUrl` is the bare origin (the reference proxies and direct load add provider paths themselves);
// `openaiBaseUrl` is what OPENAI_BASE_URL takes, version path included as in the OpenAI SDK.
const announcement = { announce: 'fake-upstream', baseUrl: fake.origin, openaiBaseUrl: fake.baseUrlFor('openai'), apiKey: fake.apiKey, pid: process.pid };
process.stdout.write(`${JSON.stringify(announcement)}\n`);
process.once('SIGTERM', () => {
  fake.close().then(() => process.exit(0), () => process.exit(1));
});
