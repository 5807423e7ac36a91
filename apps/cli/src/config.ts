// The user's CLI config: where it lives, and reading/writing it so that only its owner can read the
// secrets in it (file 0600 inside a 0700 directory, written atomically so a crash never leaves half a file).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError } from './cli-errors.js';

export interface CliConfig {
  baseUrl?: string;
  sessionToken?: string;
  sessionExpiresAt?: string;
  userId?: string;
  apiKey?: string;
  organization?: string;
}

const FIELDS = ['baseUrl', 'sessionToken', 'sessionExpiresAt', 'userId', 'apiKey', 'organization'] as const;

export function configDirectory(env: Record<string, string | undefined>): string {
  if (env.VR_CONFIG_DIR) return path.resolve(env.VR_CONFIG_DIR);
  if (env.XDG_CONFIG_HOME) return path.join(path.resolve(env.XDG_CONFIG_HOME), 'voice-router');
  return path.join(env.HOME || os.homedir(), '.config', 'voice-router');
}

export function configFilePath(env: Record<string, string | undefined>): string {
  return path.join(configDirectory(env), 'config.json');
}

export function readConfig(file: string): CliConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not valid JSON: fix it or delete it (then run \`vr login\` again).`);
  }
  const config: CliConfig = {};
  if (parsed && typeof parsed === 'object') {
    // Only known string fields survive, so a hand-edited file cannot smuggle odd values into headers.
    for (const field of FIELDS) {
      const value = (parsed as Record<string, unknown>)[field];
      if (typeof value === 'string' && value !== '') config[field] = value;
    }
  }
  return config;
}

export function writeConfig(file: string, config: CliConfig): void {
  const directory = path.dirname(file);
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  fs.chmodSync(directory, 0o700);
  const clean: CliConfig = {};
  for (const field of FIELDS) if (config[field]) clean[field] = config[field];
  const temporary = `${file}.${process.pid}.tmp`;
  // The mode applies when the file is created, so the secret is never readable by others, not even briefly.
  fs.writeFileSync(temporary, `${JSON.stringify(clean, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

/** Reads, changes and writes back; `undefined` values remove a field. */
export function updateConfig(file: string, change: Partial<Record<keyof CliConfig, string | undefined>>): CliConfig {
  const next = { ...readConfig(file), ...change } as CliConfig;
  for (const field of FIELDS) if (next[field] === undefined) delete next[field];
  writeConfig(file, next);
  return next;
}
