// `npm start`: the whole router in one process, then a short note on what to do next.
import { DataDirLockedError } from '@voice-router/ledger';
import { ConfigurationError, createLogger, flushLogs, onShutdown, parseEnvironment, scrubSecrets, secretSettings } from '@voice-router/service-kit';
import { openAICompatibleVariables } from '@voice-router/data-plane';
import { embeddedEnvironmentSchema } from './environment.js';
import { startEmbeddedService } from './embedded-service.js';

function nextSteps(baseUrl: string): string {
  return [
    '',
    `Voice Router is running at ${baseUrl}`,
    '',
    'Next steps (in another terminal):',
    '  npm run admin -- create-user --email you@example.com',
    '  npm run admin -- create-key --email you@example.com        # prints a pk_ key, once',
    '  npm run admin -- grant --email you@example.com --usd 5',
    `  curl ${baseUrl}/v1/audio/speech -H "Authorization: Bearer pk_…" -H "content-type: application/json" \\`,
    `       -d '{"model":"local/espeak-ng","voice":"en-us","input":"Hello from Voice Router"}' -o hello.mp3`,
    '',
    `Catalog (same bearer token): ${baseUrl}/v1/providers  ${baseUrl}/v1/voices  ${baseUrl}/v1/status   API: ${baseUrl}/v1/openapi.json`,
    '',
  ].join('\n');
}

async function main() {
  const environment = parseEnvironment('voice-router', embeddedEnvironmentSchema);
  const logger = createLogger({ name: 'voice-router', level: environment.LOG_LEVEL, secrets: secretSettings({ ...environment, ...openAICompatibleVariables() }) });
  const service = await startEmbeddedService(environment, logger);
  logger.info('started', { url: service.baseUrl, mode: service.mode, pid: process.pid });
  // Our log lines first (they are written asynchronously), then the note for people.
  flushLogs();
  process.stdout.write(nextSteps(service.baseUrl));
  onShutdown([() => service.close()], (message) => logger.info(message), { timeoutMs: environment.SHUTDOWN_GRACE_MS + 30_000 });
}

main().catch((error) => {
  const expected = error instanceof ConfigurationError || error instanceof DataDirLockedError;
  process.stderr.write(scrubSecrets(`${expected ? `voice-router: ${error.message}` : (error as Error).stack}\n`));
  process.exit(1);
});
