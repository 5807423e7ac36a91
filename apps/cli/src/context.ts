// Everything a command needs for one run: output, settings, the config file, and API clients that
// carry the right credential for the command (a login session, a pk_ key, either, or none).
import createClient, { type Client } from 'openapi-fetch';
import type { ApiPaths } from './api-paths.js';
import type { CliIo } from './cli-io.js';
import type { CliConfig } from './config.js';
import { updateConfig } from './config.js';
import type { Settings } from './settings.js';
import { apiErrorFrom, CliError, type TokenKind } from './cli-errors.js';

export type AuthNeed = 'none' | 'session' | 'api-key' | 'either';

export interface ApiHandle {
  client: Client<ApiPaths>;
  tokenKind: TokenKind;
}

export interface CommandContext {
  io: CliIo;
  settings: Settings;
  configFile: string;
  config: CliConfig;
  api(need: AuthNeed): ApiHandle;
  /** Writes a line (or lines) to stdout. */
  print(text: string): void;
  /** Writes to stderr: progress and notes that must not mix with data on stdout. */
  note(text: string): void;
  printJson(value: unknown): void;
  saveConfig(change: Partial<Record<keyof CliConfig, string | undefined>>): void;
  sleep(milliseconds: number): Promise<void>;
}

/** What the server will see, whichever slot the token came from (a session pasted into --api-key is still a session). */
function kindOf(token: string): TokenKind {
  return token.startsWith('vr_session_') ? 'session' : 'api_key';
}

function credentialFor(need: AuthNeed, settings: Settings): { token?: string; tokenKind: TokenKind } {
  switch (need) {
    case 'none':
      return { tokenKind: 'none' };
    case 'session':
      if (!settings.sessionToken) throw new CliError('Not logged in: run `vr login` (this command needs a login session; an API key is not enough).');
      return { token: settings.sessionToken, tokenKind: 'session' };
    case 'api-key':
      if (!settings.apiKey) {
        throw new CliError('This command needs an API key (pk_…): pass --api-key, set VR_API_KEY, or run `vr keys create --name NAME --save` after `vr login`.');
      }
      return { token: settings.apiKey, tokenKind: kindOf(settings.apiKey) };
    case 'either':
      // A key named on this very run wins; otherwise the login session, then a stored key.
      if (settings.apiKeyExplicit && settings.apiKey) return { token: settings.apiKey, tokenKind: kindOf(settings.apiKey) };
      if (settings.sessionToken) return { token: settings.sessionToken, tokenKind: 'session' };
      if (settings.apiKey) return { token: settings.apiKey, tokenKind: kindOf(settings.apiKey) };
      throw new CliError('Not logged in: run `vr login`, or pass an API key with --api-key / VR_API_KEY.');
  }
}

export function createContext(io: CliIo, settings: Settings, configFile: string, config: CliConfig): CommandContext {
  const write = (stream: CliIo['stdout'], text: string) => stream.write(text.endsWith('\n') ? text : `${text}\n`);
  return {
    io,
    settings,
    configFile,
    config,
    api(need) {
      const { token, tokenKind } = credentialFor(need, settings);
      const headers: Record<string, string> = { 'user-agent': 'voice-router-cli' };
      if (token) headers.authorization = `Bearer ${token}`;
      // The organization picks the account only for a session; a pk_ key already belongs to one.
      if (tokenKind === 'session' && settings.organization) headers['x-organization-id'] = settings.organization;
      const fetchImplementation = io.fetch ?? globalThis.fetch;
      const client = createClient<ApiPaths>({ baseUrl: settings.baseUrl, headers, fetch: (request) => fetchImplementation(request) });
      return { client, tokenKind };
    },
    print: (text) => write(io.stdout, text),
    note: (text) => write(io.stderr, text),
    printJson: (value) => write(io.stdout, JSON.stringify(value, null, 2)),
    saveConfig(change) {
      Object.assign(config, updateConfig(configFile, change));
      for (const key of Object.keys(change) as Array<keyof CliConfig>) if (change[key] === undefined) delete config[key];
    },
    sleep: io.sleep ?? ((milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds))),
  };
}

/** Returns the body of a 2xx answer, or throws the API's error with the credential that was sent. */
export async function expectData<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
  tokenKind: TokenKind,
): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok || data === undefined) throw apiErrorFrom(response, error, tokenKind);
  return data;
}
