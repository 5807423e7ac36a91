#!/usr/bin/env node
// Runs all three fake providers on one port for manual testing: `node dist/cli.js --port 9100`.

import { parseArgs } from 'node:util';
import { startFakeProviders } from './start-fake-provider.js';

function optionalNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} must be a non-negative number`);
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '9100' },
      'api-key': { type: 'string' },
      'first-byte-delay-ms': { type: 'string' },
      'chunk-bytes': { type: 'string' },
      'chunk-interval-ms': { type: 'string' },
      'total-bytes': { type: 'string' },
    },
  });
  const fake = await startFakeProviders({
    port: optionalNumber(values.port, 'port'),
    apiKey: values['api-key'],
    firstByteDelayMs: optionalNumber(values['first-byte-delay-ms'], 'first-byte-delay-ms'),
    chunkBytes: optionalNumber(values['chunk-bytes'], 'chunk-bytes'),
    chunkIntervalMs: optionalNumber(values['chunk-interval-ms'], 'chunk-interval-ms'),
    totalBytes: optionalNumber(values['total-bytes'], 'total-bytes'),
    // A manual or benchmark run may serve millions of requests: do not keep them all in memory.
    recordRequests: false,
  });
  process.stdout.write(
    [
      `fake providers listening on ${fake.origin}`,
      `api key: ${fake.apiKey}`,
      `  OPENAI_BASE_URL=${fake.baseUrlFor('openai')}          POST <base>/audio/speech (Authorization: Bearer <key>)`,
      `  ELEVENLABS_BASE_URL=${fake.baseUrlFor('elevenlabs')}      POST <base>/v1/text-to-speech/{voice}/stream (xi-api-key: <key>)`,
      `  CARTESIA_BASE_URL=${fake.baseUrlFor('cartesia')}        POST <base>/tts/bytes (Authorization: Bearer <key>, Cartesia-Version)`,
      '',
    ].join('\n'),
  );
  const stop = () => {
    fake.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
