// The console's Voices page, served by a data plane: catalog reads carry the visitor's console session as a
// bearer token; a sample is synthesized with a key made for that one request (so every wallet, limit and
// spend-cap rule of the speech path applies unchanged) and revoked as soon as it is answered. Nothing from a
// provider's error reaches the page: the data plane already answers with router-written errors only.
import type { ConsoleCatalog, ConsoleCatalogProvider, ConsoleCatalogVoice } from '@voice-router/console';
import { createApiKey, memberRole, revokeApiKey, type Database } from '@voice-router/ledger';

const MAX_SAMPLE_BYTES = 8 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 60_000;
const unavailable = { ok: false as const, reason: 'unavailable' as const, message: 'The voice catalog is unavailable right now. Try again in a moment.' };

interface WireModel { id: string; name: string; response_formats: Array<'mp3' | 'pcm'>; pricing: { microsPerUnit: number }; maxInputCharacters: number }
interface WireProvider { id: string; name: string; models: WireModel[] }
interface WireVoice { id: string; provider: string; name: string; language: string; labels: Record<string, string>; preview_url?: string; model_compatibility: string[] }

export interface ConsoleCatalogOptions {
  database: Database;
  /** The data plane's base URL (the embedded process's own, or DATA_PLANE_URL); undefined while unknown. */
  dataPlaneUrl(): string | undefined;
}

export function createConsoleCatalog(options: ConsoleCatalogOptions): ConsoleCatalog {
  const get = async <T>(path: string, sessionToken: string): Promise<T | undefined> => {
    const base = options.dataPlaneUrl();
    if (!base) return undefined;
    try {
      const response = await fetch(new URL(path, base), { headers: { authorization: `Bearer ${sessionToken}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      if (!response.ok) {
        await response.body?.cancel();
        return undefined;
      }
      return (await response.json()) as T;
    } catch {
      return undefined;
    }
  };

  return {
    async providers({ sessionToken }) {
      const [catalog, status] = await Promise.all([
        get<{ providers: WireProvider[] }>('/v1/providers', sessionToken),
        get<{ providers: Array<{ id: string; reason?: string }> }>('/v1/status', sessionToken),
      ]);
      if (!catalog || !status) return unavailable;
      const missingKey = new Set(status.providers.filter((provider) => provider.reason === 'missing_api_key').map((provider) => provider.id));
      return catalog.providers.map((provider): ConsoleCatalogProvider => ({
        id: provider.id,
        name: provider.name,
        configured: !missingKey.has(provider.id),
        models: provider.models.map((model) => ({
          id: model.id, name: model.name, responseFormats: model.response_formats, microsPerCharacter: model.pricing.microsPerUnit, maxInputCharacters: model.maxInputCharacters,
        })),
      }));
    },

    async voices({ sessionToken, filter }) {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
      const body = await get<{ voices: WireVoice[] }>(`/v1/voices?${query.toString()}`, sessionToken);
      if (!body) return unavailable;
      return body.voices.map((voice): ConsoleCatalogVoice => ({
        id: voice.id, provider: voice.provider, name: voice.name, language: voice.language, labels: voice.labels,
        ...(voice.preview_url ? { previewUrl: voice.preview_url } : {}), modelCompatibility: voice.model_compatibility,
      }));
    },

    async synthesizeSample({ userId, accountId, model, voice, format, text }) {
      if (!(await memberRole(options.database.sql, userId, accountId))) {
        return { ok: false, reason: 'forbidden', message: 'You are not a member of that account.' };
      }
      const base = options.dataPlaneUrl();
      if (!base) return unavailable;
      const key = await createApiKey(options.database.prisma, { accountId, name: 'console sample (revoked after use)', createdByUserId: userId });
      try {
        const response = await fetch(new URL('/v1/audio/speech', base), {
          method: 'POST',
          headers: { authorization: `Bearer ${key.keyValue}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model, voice, input: text, response_format: format }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        if (!response.ok) {
          const body = (await response.json().catch(() => ({}))) as { error?: string; details?: string };
          if (response.status === 402) {
            return { ok: false, reason: 'insufficient_credit', message: body.details ?? 'The wallet cannot pay for this sample.' };
          }
          if (response.status === 400) return { ok: false, reason: 'invalid', message: body.details ?? 'The sample request was refused.' };
          return { ok: false, reason: 'upstream', message: `The provider could not speak this sample (${body.error ?? `HTTP ${response.status}`}). Nothing was charged.` };
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          size += chunk.byteLength;
          if (size > MAX_SAMPLE_BYTES) return { ok: false, reason: 'upstream', message: 'The sample came back larger than a sample should be.' };
          chunks.push(Buffer.from(chunk));
        }
        const costMicros = Number(response.headers.get('x-router-cost-micros') ?? '0');
        return { ok: true, audio: Buffer.concat(chunks), contentType: response.headers.get('content-type') ?? 'application/octet-stream', format, costMicros };
      } catch {
        return unavailable;
      } finally {
        await revokeApiKey(options.database.prisma, { id: key.id });
      }
    },
  };
}
