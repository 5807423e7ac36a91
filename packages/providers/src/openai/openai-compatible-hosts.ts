// OpenAI-compatible speech hosts added by settings alone: every `OPENAI_COMPATIBLE_<NAME>_*` group of variables
// becomes one provider module (id `<name>` lower-cased, `_` as `-`) speaking OpenAI's /audio/speech dialect.
//
//   OPENAI_COMPATIBLE_<NAME>_BASE_URL              required; includes the version path, as OPENAI_BASE_URL does
//   OPENAI_COMPATIBLE_<NAME>_MODELS                required; comma list of `<model_id>=<US dollars per 1M characters>`
//   OPENAI_COMPATIBLE_<NAME>_API_KEY               optional; sent as `Authorization: Bearer`, nothing sent without it
//   OPENAI_COMPATIBLE_<NAME>_VOICES                optional; comma list of voice ids for the catalog
//   OPENAI_COMPATIBLE_<NAME>_MAX_INPUT_CHARACTERS  optional; default 4096, as OpenAI
//
// Anything wrong (an unknown suffix, a missing base URL or price, an id that collides with a built-in provider)
// throws an Error naming the variable, so the service refuses to start.

import { z } from 'zod';
import { baseUrlSchema, type SettingsSpec } from '../settings/provider-settings.js';
import type { HttpProviderConfig, ProviderModule } from '../provider-module.js';
import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';
import { defineOpenAICompatibleProvider } from './openai-compatible-provider.js';

export const OPENAI_COMPATIBLE_PREFIX = 'OPENAI_COMPATIBLE_';
const SUFFIXES = ['BASE_URL', 'API_KEY', 'MODELS', 'VOICES', 'MAX_INPUT_CHARACTERS'] as const;
type Suffix = (typeof SUFFIXES)[number];
const VARIABLE = new RegExp(`^${OPENAI_COMPATIBLE_PREFIX}([A-Za-z0-9_]+?)_(${SUFFIXES.join('|')})$`);
const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** US dollars per 1M characters = micro-dollars per character; up to six decimals. */
const PRICE = /^\d{1,7}(\.\d{1,6})?$/;
const MAX_PRICE = 1_000_000;
const DEFAULT_MAX_INPUT_CHARACTERS = 4096;
const urlSchema = z.url({ protocol: /^https?$/ });

export interface OpenAICompatibleHost {
  id: string;
  /** The variables' common prefix, `OPENAI_COMPATIBLE_<NAME>`. */
  prefix: string;
  baseUrl: string;
  apiKey?: string;
  models: Array<{ id: string; microsPerCharacter: number }>;
  voices: string[];
  maxInputCharacters: number;
}

function fail(message: string): never {
  throw new Error(`OpenAI-compatible hosts: ${message}`);
}

function parseModels(variable: string, value: string): OpenAICompatibleHost['models'] {
  const models: OpenAICompatibleHost['models'] = [];
  for (const entry of value.split(',').map((part) => part.trim()).filter((part) => part.length > 0)) {
    const separator = entry.lastIndexOf('=');
    const id = (separator < 0 ? entry : entry.slice(0, separator)).trim();
    const price = separator < 0 ? '' : entry.slice(separator + 1).trim();
    if (id.length === 0 || /\s/.test(id)) fail(`${variable}: "${entry}" is not <model_id>=<price>`);
    if (separator < 0) fail(`${variable}: model ${id} has no price; write ${id}=<US dollars per 1M characters> (0 for free)`);
    if (!PRICE.test(price) || Number(price) > MAX_PRICE) {
      fail(`${variable}: the price of model ${id} must be US dollars per 1M characters, a number from 0 to ${MAX_PRICE} with at most 6 decimals`);
    }
    if (models.some((model) => model.id === id)) fail(`${variable}: model ${id} is listed twice`);
    models.push({ id, microsPerCharacter: Number(price) });
  }
  if (models.length === 0) fail(`${variable}: list at least one model as <model_id>=<US dollars per 1M characters>`);
  return models;
}

function parseVoices(variable: string, value: string): string[] {
  const voices = value.split(',').map((part) => part.trim()).filter((part) => part.length > 0);
  if (new Set(voices).size !== voices.length) fail(`${variable}: a voice is listed twice`);
  return voices;
}

/**
 * The hosts an environment declares, checked. `reservedIds` are the built-in providers' ids, which a host may
 * not take. Variables whose value is empty count as unset.
 */
export function parseOpenAICompatibleHosts(
  environment: Readonly<Record<string, string | undefined>>,
  reservedIds: Iterable<string>,
): OpenAICompatibleHost[] {
  const reserved = new Set(reservedIds);
  const groups = new Map<string, Partial<Record<Suffix, string>>>();
  for (const [variable, value] of Object.entries(environment)) {
    if (!variable.startsWith(OPENAI_COMPATIBLE_PREFIX) || value === undefined || value === '') continue;
    const match = VARIABLE.exec(variable);
    if (!match) fail(`${variable} is not recognised; expected ${OPENAI_COMPATIBLE_PREFIX}<NAME>_{${SUFFIXES.join(',')}}`);
    const [, name, suffix] = match as unknown as [string, string, Suffix];
    const group = groups.get(name) ?? {};
    group[suffix] = value;
    groups.set(name, group);
  }
  const hosts: OpenAICompatibleHost[] = [];
  for (const [name, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const prefix = `${OPENAI_COMPATIBLE_PREFIX}${name}`;
    const id = name.toLowerCase().replace(/_/g, '-');
    if (name !== name.toUpperCase() || !ID.test(id)) {
      fail(`${prefix}_*: <NAME> must be upper-case letters and digits, words joined by single underscores (the provider id is ${JSON.stringify(id)}, which must match [a-z0-9-]+)`);
    }
    if (reserved.has(id)) fail(`${prefix}_*: the id ${id} is a built-in provider's; choose another <NAME>`);
    if (group.BASE_URL === undefined) fail(`${prefix}_BASE_URL is required (the host's base URL including its version path, e.g. https://host/v1)`);
    if (!urlSchema.safeParse(group.BASE_URL).success) fail(`${prefix}_BASE_URL must be an http(s) URL`);
    if (group.MODELS === undefined) fail(`${prefix}_MODELS is required (comma list of <model_id>=<US dollars per 1M characters>)`);
    let maxInputCharacters = DEFAULT_MAX_INPUT_CHARACTERS;
    if (group.MAX_INPUT_CHARACTERS !== undefined) {
      maxInputCharacters = Number(group.MAX_INPUT_CHARACTERS);
      if (!/^\d+$/.test(group.MAX_INPUT_CHARACTERS) || maxInputCharacters < 1 || maxInputCharacters > 1_000_000) {
        fail(`${prefix}_MAX_INPUT_CHARACTERS must be an integer from 1 to 1000000`);
      }
    }
    hosts.push({
      id,
      prefix,
      baseUrl: group.BASE_URL,
      ...(group.API_KEY !== undefined ? { apiKey: group.API_KEY } : {}),
      models: parseModels(`${prefix}_MODELS`, group.MODELS),
      voices: group.VOICES === undefined ? [] : parseVoices(`${prefix}_VOICES`, group.VOICES),
      maxInputCharacters,
    });
  }
  return hosts;
}

function hostDescriptor(host: OpenAICompatibleHost): ProviderDescriptor {
  const models: ModelDescriptor[] = host.models.map((model) => ({
    id: model.id,
    name: model.id,
    responseFormats: ['mp3', 'pcm'],
    pricing: { unit: 'character', microsPerUnit: model.microsPerCharacter },
    maxInputCharacters: host.maxInputCharacters,
  }));
  const modelIds = host.models.map((model) => model.id);
  // The operator names voices only; their language is undetermined (BCP 47 `und`).
  const voices: VoiceDescriptor[] = host.voices.map((voice) => ({ id: voice, name: voice, language: 'und', labels: {}, modelCompatibility: modelIds }));
  return {
    id: host.id,
    name: `${host.id} (OpenAI-compatible)`,
    // Not the host's URL: /v1/providers is public to clients, and a self-hosted base is internal infrastructure.
    website: 'https://platform.openai.com/docs/api-reference/audio/createSpeech',
    requiresApiKey: host.apiKey !== undefined,
    models,
    voices,
    capabilities: {
      supportedFormats: ['mp3', 'pcm'],
      unwiredCapabilities: [],
      quirks: [
        `configured by the operator (${host.prefix}_*): an OpenAI-compatible host answering POST <base>/audio/speech with response_format mp3 and pcm (s16le, 24 kHz, mono)`,
        'prices are the operator\'s (in the MODELS setting or PRICING_FILE)',
        'speed, instructions and errors follow OpenAI\'s rules (speed 0.25 to 4; instructions dropped for tts-1 models)',
        ...(host.voices.length === 0 ? ['no voice list configured: any voice id is passed through'] : []),
      ],
      lastSmokeTest: NEVER_SMOKE_TESTED,
    },
  };
}

/** The host as a provider module; its settings are its own variables (the key is a secret). */
export function openAICompatibleHostModule(host: OpenAICompatibleHost): ProviderModule<HttpProviderConfig> {
  const environment: SettingsSpec = {
    apiKey: { env: `${host.prefix}_API_KEY`, schema: z.string().optional(), description: `API key of ${host.id}; none is sent without it`, secret: true },
    baseUrl: { env: `${host.prefix}_BASE_URL`, schema: baseUrlSchema, description: `Base URL of ${host.id} (includes the version path, as OPENAI_BASE_URL)` },
  };
  const module = defineOpenAICompatibleProvider({
    id: host.id,
    defaultBaseUrl: host.baseUrl,
    descriptor: hostDescriptor(host),
    settings: { maxInputCharacters: host.maxInputCharacters },
    environment,
    baseUrlConvention: 'includes the version path, as OPENAI_BASE_URL',
    mp3Quality: 'the host\'s mp3 (response_format mp3)',
  });
  // Self-hosted servers often need no key: a declared host is configured by its base URL and models alone.
  return { ...module, isConfigured: () => true };
}

/** Every host the environment declares, as provider modules (see parseOpenAICompatibleHosts for the rules). */
export function openAICompatibleHostModules(
  environment: Readonly<Record<string, string | undefined>>,
  reservedIds: Iterable<string>,
): ProviderModule<HttpProviderConfig>[] {
  return parseOpenAICompatibleHosts(environment, reservedIds).map(openAICompatibleHostModule);
}

/** The settings object the registry gives each host module (`providers[<id>]`), read from the same environment. */
export function openAICompatibleHostSettings(hosts: readonly OpenAICompatibleHost[]): Record<string, HttpProviderConfig> {
  return Object.fromEntries(hosts.map((host) => [host.id, { apiKey: host.apiKey, baseUrl: host.baseUrl }]));
}
