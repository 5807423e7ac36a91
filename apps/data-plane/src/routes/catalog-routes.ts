// GET /v1/providers, /v1/voices, /v1/status: served from memory, no upstream calls, to any valid
// bearer token (a pk_ key or a session). Both views are rebuilt only when the catalog changes (a background
// voice refresh or a smoke test); voices are filtered per request.
import { VoicesQuerySchema } from '@voice-router/contracts';
import type { CatalogState, ProviderDescriptor } from '@voice-router/providers';
import { authenticatedGet } from '../auth/authenticated-route.js';
import type { DataPlaneContext } from '../context.js';
import { sendError, sendJson, sendRawJson } from '../http/response.js';
import type { TemplatedApp } from '../uws.js';

export function providerView(provider: ProviderDescriptor, catalog?: CatalogState) {
  return {
    id: provider.id,
    name: provider.name,
    website: provider.website,
    models: provider.models.map((model) => ({
      id: model.id,
      name: model.name,
      response_formats: model.responseFormats,
      pricing: model.pricing,
      maxInputCharacters: model.maxInputCharacters,
    })),
    provider_options: provider.providerOptions ?? [],
    mp3_quality: provider.mp3Quality ?? 'provider default',
    capabilities: { ...provider.capabilities, lastSmokeTest: catalog?.lastSmokeTest(provider.id) ?? provider.capabilities.lastSmokeTest },
  };
}

export function voiceViews(providers: ProviderDescriptor[], catalog?: CatalogState) {
  return providers.flatMap((provider) =>
    (catalog?.voices(provider.id) ?? provider.voices).map((voice) => ({
      id: voice.id,
      provider: provider.id,
      name: voice.name,
      language: voice.language,
      labels: voice.labels,
      ...(voice.previewUrl ? { preview_url: voice.previewUrl } : {}),
      model_compatibility: voice.modelCompatibility,
    })),
  );
}

/** `en` matches `en` and `en-US` (a whole-subtag prefix), not `enx`. */
export function matchesLanguage(voiceLanguage: string, wanted: string): boolean {
  const tag = voiceLanguage.toLowerCase();
  return tag === wanted || tag.startsWith(wanted.endsWith('-') ? wanted : `${wanted}-`);
}

export function registerCatalogRoutes(app: TemplatedApp, context: DataPlaneContext): void {
  const { catalog } = context;
  let builtFor = -1;
  let providersJson = '';
  let voices: ReturnType<typeof voiceViews> = [];
  const current = () => {
    if (builtFor !== catalog.version) {
      builtFor = catalog.version;
      const providers = context.registry.list();
      providersJson = JSON.stringify({ providers: providers.map((provider) => providerView(provider, catalog)) });
      voices = voiceViews(providers, catalog);
    }
    return { providersJson, voices };
  };

  authenticatedGet(app, '/v1/providers', context, (res, state) => {
    sendRawJson(res, state, 200, current().providersJson);
  }, { consoleSessions: true });

  authenticatedGet(app, '/v1/voices', context, (res, state, { query }) => {
    const parsed = VoicesQuerySchema.safeParse(Object.fromEntries(query));
    if (!parsed.success) return sendError(res, state, 'invalid_body', 'provider, language and gender must be strings');
    const wantedProviders = parsed.data.provider
      ?.split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    const language = parsed.data.language?.toLowerCase();
    const gender = parsed.data.gender?.toLowerCase();
    const matches = current().voices.filter(
      (voice) =>
        (!wantedProviders?.length || wantedProviders.includes(voice.provider)) &&
        (!language || matchesLanguage(voice.language, language)) &&
        (!gender || voice.labels.gender?.toLowerCase() === gender),
    );
    sendJson(res, state, 200, { voices: matches });
  }, { readsQuery: true, consoleSessions: true });

  authenticatedGet(app, '/v1/status', context, (res, state) => {
    sendJson(res, state, 200, { providers: context.registry.status() });
  }, { consoleSessions: true });
}
