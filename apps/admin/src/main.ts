// `npm run admin -- <command> [--flag value …]`: operator commands in either run mode.
// With DATABASE_URL: straight to PostgreSQL. Embedded: through the running service's loopback admin
// endpoint when it runs (PGlite allows one process), else by opening the PGlite data dir itself.
import fs from 'node:fs';
import path from 'node:path';
import { DataDirLockedError, openDatabase, processAlive, type Database } from '@voice-router/ledger';
import { AdminCommandSchema, runAdminCommand, type AdminCommand, type AdminServices } from './commands.js';
import { adminFilePath, type AdminEndpointFile } from './admin-server.js';
import { scrubSecrets } from '@voice-router/service-kit';

const USAGE = `usage: npm run admin -- <command> [options]
  create-user  --email <email>
  create-org   --name <name> --owner <email>
  add-member   --org <org id> --email <email>
  create-key   --email <email> [--org <org id>] [--name <name>]
  revoke-key   --id <key id>
  grant        --email <email> --usd <amount> [--org <org id>] [--idempotency-key <key>]
               (a retried grant with the same key credits once; reused for another amount or account: refused)
  set-password --email <email> --password -        (reads the password from standard input)
  list-accounts
  audit        --email <email> [--org <org id>]
  migrate      applies pending database migrations and lists them (every other command does this first)
  smoke-test   [--provider <id>]   one real, billed synthesis per configured provider (or one); success sets
               its lastSmokeTest in /v1/providers. Runs in the embedded service when it runs, else here with
               this shell's provider settings (OPENAI_API_KEY, …)
Embedded mode uses DATA_DIR (default ./.data); with DATABASE_URL it talks to PostgreSQL.`;

export function parseArguments(argv: string[]): AdminCommand {
  const [command, ...rest] = argv;
  const fields: Record<string, string> = { command: command ?? '' };
  for (let index = 0; index < rest.length; index += 2) {
    const flag = rest[index]!;
    const value = rest[index + 1];
    if (!flag.startsWith('--') || value === undefined) throw new Error(`expected --flag value, got ${flag}`);
    fields[flag.slice(2)] = value;
  }
  if (fields.password === '-') fields.password = readStandardInput();
  const parsed = AdminCommandSchema.safeParse(fields);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'command'}: ${issue.message}`).join('\n'));
  return parsed.data;
}

/** Loaded on use: the provider registry and settings are needed by `smoke-test` alone, not by every command's start-up. */
function directSmokeTestLoader(database: Database): NonNullable<AdminServices['smokeTest']> {
  return async (providerIds) => (await import('./smoke-test-service.js')).directSmokeTest(database)(providerIds);
}

function readStandardInput(): string {
  return fs.readFileSync(0, 'utf8').replace(/\r?\n$/, '');
}


async function viaRunningService(endpoint: AdminEndpointFile, command: AdminCommand): Promise<unknown> {
  const response = await fetch(`${endpoint.url}/admin/commands`, {
    method: 'POST',
    headers: { authorization: `Bearer ${endpoint.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(command),
  });
  const body = (await response.json()) as { error?: string; details?: string };
  if (!response.ok) throw new Error(body.details ?? body.error ?? `HTTP ${response.status}`);
  return body;
}

async function run(command: AdminCommand): Promise<unknown> {
  const databaseUrl = process.env.DATABASE_URL;
  // `migrate` applies the migrations itself, to report them; every other command migrates on opening.
  const migrate = command.command !== 'migrate';
  if (databaseUrl) {
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 }, { migrate });
    try {
      return await runAdminCommand(database, command, { smokeTest: directSmokeTestLoader(database) });
    } finally {
      await database.close();
    }
  }
  const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
  // A service that is starting holds the data dir before its endpoint is up: wait a little for it.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const endpoint = runningServiceEndpoint(dataDir);
    if (endpoint) return viaRunningService(endpoint, command);
    let database;
    try {
      database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') }, { migrate });
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      if (Date.now() > deadline) {
        throw new Error(
          `${dataDir} is held by process ${error.pid}, which offers no operator endpoint (${adminFilePath(dataDir)}): ` +
            'it may still be starting (try again) or not be a Voice Router service; stop it to run commands on the data dir directly',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      return await runAdminCommand(database, command, { smokeTest: directSmokeTestLoader(database) });
    } finally {
      await database.close();
    }
  }
}

/** The running service's endpoint, if its file names a live process (a stale file is removed). */
function runningServiceEndpoint(dataDir: string): AdminEndpointFile | undefined {
  const endpointFile = adminFilePath(dataDir);
  if (!fs.existsSync(endpointFile)) return undefined;
  const endpoint = JSON.parse(fs.readFileSync(endpointFile, 'utf8')) as AdminEndpointFile;
  if (processAlive(endpoint.pid)) return endpoint;
  fs.rmSync(endpointFile, { force: true });
  return undefined;
}

async function main() {
  const argv = process.argv.slice(2);
  if (!argv.length || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let command: AdminCommand;
  try {
    command = parseArguments(argv);
  } catch (error) {
    process.stderr.write(`${scrubSecrets((error as Error).message)}\n\n${USAGE}\n`);
    process.exit(2);
  }
  const result = await run(command);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`admin: ${scrubSecrets((error as Error).message)}\n`);
    process.exit(1);
  },
);
