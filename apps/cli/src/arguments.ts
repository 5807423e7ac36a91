// Splits argv into a command and its flags with node:util parseArgs. Global flags may stand
// anywhere; the command is the first word (two for `keys …` and `sessions …`) that is not a flag or a flag's value.
import { parseArgs } from 'node:util';
import type { Command, OptionValues, ParseArgsOptions } from './command.js';
import { UsageError } from './cli-errors.js';

export const GLOBAL_OPTIONS = {
  'base-url': { type: 'string' },
  org: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const satisfies ParseArgsOptions;

export const GLOBAL_HELP = [
  '--base-url URL         server address (default: VR_BASE_URL, then the config file, then http://127.0.0.1:8080)',
  '--org ID|personal      organization for session requests (default: VR_ORGANIZATION, then the config file)',
  '-h, --help             show help',
];

export interface ParsedArguments {
  command?: Command;
  /** The words that named no command, for the error message. */
  unknown?: string;
  values: OptionValues;
  positionals: string[];
}

const GLOBAL_VALUE_FLAGS = new Set(['--base-url', '--org']);
const TWO_WORD_COMMANDS = new Set(['keys', 'sessions', 'billing']);

/** Indexes of the words that name the command, skipping global flags and their values. */
function commandWords(argv: string[]): number[] {
  const found: number[] = [];
  for (let index = 0; index < argv.length && found.length < 2; index++) {
    const word = argv[index]!;
    if (word === '--') break;
    if (GLOBAL_VALUE_FLAGS.has(word)) {
      index++;
      continue;
    }
    if (word.startsWith('-')) {
      // A non-global flag ends the command words: what follows may be its value.
      if (found.length > 0) break;
      continue;
    }
    found.push(index);
    // Only `keys`, `sessions` and `billing` take a second word.
    if (!TWO_WORD_COMMANDS.has(argv[found[0]!]!)) break;
    // The subcommand must follow directly, or `vr keys --name list create` would be ambiguous.
    if (found.length === 1 && argv[index + 1] !== undefined && argv[index + 1]!.startsWith('-')) break;
  }
  return found;
}

export function parseArguments(argv: string[], commands: Command[]): ParsedArguments {
  const words = commandWords(argv);
  const name = words.map((index) => argv[index]).join(' ');
  const command = commands.find((candidate) => candidate.name === name);
  const rest = argv.filter((_, index) => !words.includes(index));
  const options = { ...GLOBAL_OPTIONS, ...(command?.options ?? {}) };
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs' messages name the flag ("Unknown option '--x'"); the hint to --help is added later.
    throw new UsageError((error as Error).message.split('. ')[0]!.replace(/\.$/, ''), command?.name);
  }
  const values = parsed.values as OptionValues;
  if (!command) return { unknown: name || undefined, values, positionals: parsed.positionals };
  const limits = command.positionals ?? { min: 0, max: 0 };
  if (!values.help) {
    if (parsed.positionals.length < limits.min) throw new UsageError(`missing ${limits.name ?? 'argument'}`, command.name);
    if (parsed.positionals.length > limits.max) throw new UsageError(`unexpected argument "${parsed.positionals[limits.max]}"`, command.name);
  }
  return { command, values, positionals: parsed.positionals };
}
