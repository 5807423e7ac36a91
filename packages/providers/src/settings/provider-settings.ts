// A provider's deployment settings: each module declares its settings once (environment variable name, zod
// schema, description), and everything else is derived from that declaration: the data plane's environment
// schema, the registry's typed per-provider settings and the README's list of variables.

import { z } from 'zod';

export interface SettingSpec<T = unknown> {
  /** The environment variable, named as the provider's own ecosystem names it where it has a name. */
  env: string;
  schema: z.ZodType<T>;
  description: string;
  /** Credentials: never logged, never shown. */
  secret?: boolean;
}

/** A module's settings: one entry per field of the settings object the module's create() receives. */
export type SettingsSpec = Record<string, SettingSpec>;

/** The settings object a spec produces, e.g. `{ apiKey?: string; baseUrl?: string }`. */
export type SettingsOf<TSpec extends SettingsSpec> = { [K in keyof TSpec]: TSpec[K] extends SettingSpec<infer T> ? T : never };

/** A base URL as the provider's official SDK takes it; trailing slashes are fine. */
export const baseUrlSchema = z.url({ protocol: /^https?$/ }).optional();
const apiKeySchema = z.string().optional();

/**
 * The generic settings of an HTTP provider: `<ID>_API_KEY` and `<ID>_BASE_URL` (ID upper-cased, `-` as `_`).
 * `baseUrlConvention` says what the base holds, following the provider's SDK (e.g. "includes /v1").
 */
export function apiKeySettings(id: string, baseUrlConvention: string) {
  const prefix = envPrefix(id);
  return {
    apiKey: { env: `${prefix}_API_KEY`, schema: apiKeySchema, description: `API key; without it ${id} is listed but unavailable`, secret: true },
    baseUrl: { env: `${prefix}_BASE_URL`, schema: baseUrlSchema, description: `Base URL (${baseUrlConvention})` },
  } satisfies SettingsSpec;
}

export function envPrefix(id: string): string {
  return id.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** The zod object of one module's settings (keys are the settings' own names, not env names). */
export function settingsSchema(spec: SettingsSpec): z.ZodObject {
  return z.object(Object.fromEntries(Object.entries(spec).map(([key, setting]) => [key, setting.schema])));
}

/** Every listed module's environment variables as a zod shape, for a service's environment schema. */
export function settingsEnvironmentShape(modules: ReadonlyArray<{ id: string; settings: SettingsSpec }>): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  const owners = new Map<string, string>();
  for (const module of modules) {
    for (const setting of Object.values(module.settings)) {
      const owner = owners.get(setting.env);
      if (owner !== undefined) throw new Error(`environment variable ${setting.env} is declared by both ${owner} and ${module.id}`);
      owners.set(setting.env, module.id);
      shape[setting.env] = setting.schema;
    }
  }
  return shape;
}

/**
 * Maps an environment already parsed with `settingsEnvironmentShape` onto per-provider settings objects,
 * keyed by provider id (the registry's `providers` config).
 */
export function providerSettingsFromEnvironment(
  modules: ReadonlyArray<{ id: string; settings: SettingsSpec }>,
  environment: Readonly<Record<string, unknown>>,
): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    modules.map((module) => [
      module.id,
      Object.fromEntries(Object.entries(module.settings).map(([key, setting]) => [key, environment[setting.env]])),
    ]),
  );
}
