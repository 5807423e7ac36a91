#!/usr/bin/env node
// Runs every provider's double on one port for manual testing: `node dist/cli.js --port 9100`.

import { parseArgs } from 'node:util';
import { providerModules } from '@voice-router/providers';
import { FAKE_PROVIDER_KINDS, startFakeProviders } from '@voice-router/providers/testing';

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
      ...FAKE_PROVIDER_KINDS.map((kind) => {
        const baseUrlEnv = providerModules.find((module) => module.id === kind)?.settings.baseUrl?.env ?? `${kind} base URL`;
        return `  ${baseUrlEnv}=${fake.baseUrlFor(kind)}`;
      }),
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
