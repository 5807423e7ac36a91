// The CLI as a function: parse, load the config, run one command, map any failure to one line on
// stderr and an exit code (0 ok, 1 API or local failure, 2 bad arguments). main.ts only wires process.
import fs from 'node:fs';
import { parseArguments } from './arguments.js';
import type { CliIo } from './cli-io.js';
import { UsageError } from './cli-errors.js';
import { COMMANDS } from './commands/index.js';
import { configFilePath, readConfig } from './config.js';
import { createContext } from './context.js';
import { describeFailure } from './error-messages.js';
import { commandHelp, mainHelp } from './help.js';
import { resolveSettings } from './settings.js';
import { stringValue } from './command.js';

function version(): string {
  const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let baseUrl: string | undefined;
  try {
    // `vr help keys create` reads as `vr keys create --help`.
    const words = argv[0] === 'help' ? [...argv.slice(1), '--help'] : argv;
    if (words.length === 0) {
      io.stdout.write(mainHelp(COMMANDS));
      return 0;
    }
    const parsed = parseArguments(words, COMMANDS);
    if (!parsed.command) {
      if (parsed.values.version) {
        io.stdout.write(`${version()}\n`);
        return 0;
      }
      if (parsed.values.help && !parsed.unknown) {
        io.stdout.write(mainHelp(COMMANDS));
        return 0;
      }
      if (parsed.unknown === 'keys' || parsed.unknown?.startsWith('keys ')) throw new UsageError('`vr keys` takes list, create, update or revoke');
      if (parsed.unknown === 'sessions' || parsed.unknown?.startsWith('sessions ')) throw new UsageError('`vr sessions` takes list or revoke');
      throw new UsageError(parsed.unknown ? `unknown command "${parsed.unknown}"` : 'no command given');
    }
    if (parsed.values.help) {
      io.stdout.write(commandHelp(parsed.command));
      return 0;
    }
    const configFile = configFilePath(io.env);
    const config = readConfig(configFile);
    const settings = resolveSettings(
      { baseUrl: stringValue(parsed.values, 'base-url'), org: stringValue(parsed.values, 'org'), apiKey: stringValue(parsed.values, 'api-key') },
      io.env,
      config,
    );
    baseUrl = settings.baseUrl;
    await parsed.command.run(createContext(io, settings, configFile, config), parsed);
    return 0;
  } catch (error) {
    const { message, exitCode } = describeFailure(error, baseUrl);
    io.stderr.write(`error: ${message}\n`);
    return exitCode;
  }
}
