// The catalog as served, in memory: each provider's current voice list (built-in until its voice API first
// answers, then the last good live list) and its last successful smoke test. Readers check `version` to
// rebuild cached views only when something changed.

import { NEVER_SMOKE_TESTED, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

/** A provider's stored run-time state, as a CatalogStore returns it. */
export interface StoredCatalogEntry {
  providerId: string;
  voices?: unknown;
  voicesRefreshedAt?: Date;
  lastSmokeTestAt?: Date;
  updatedAt: Date;
}

interface VoiceList {
  voices: VoiceDescriptor[];
  /** Absent while the built-in list stands in. */
  refreshedAt?: Date;
}

function isVoiceDescriptor(value: unknown): value is VoiceDescriptor {
  if (typeof value !== 'object' || value === null) return false;
  const voice = value as Record<string, unknown>;
  return (
    typeof voice.id === 'string' &&
    typeof voice.name === 'string' &&
    typeof voice.language === 'string' &&
    typeof voice.labels === 'object' && voice.labels !== null &&
    Object.values(voice.labels).every((label) => typeof label === 'string') &&
    Array.isArray(voice.modelCompatibility) && voice.modelCompatibility.every((model) => typeof model === 'string') &&
    (voice.previewUrl === undefined || typeof voice.previewUrl === 'string')
  );
}

export class CatalogState {
  private readonly lists = new Map<string, VoiceList>();
  private readonly smokeTests = new Map<string, Date>();
  private currentVersion = 0;

  constructor(private readonly providers: () => ProviderDescriptor[]) {}

  /** Increments on every change; cached views compare it. */
  get version(): number {
    return this.currentVersion;
  }

  voices(providerId: string): VoiceDescriptor[] {
    return this.lists.get(providerId)?.voices ?? this.providers().find((provider) => provider.id === providerId)?.voices ?? [];
  }

  voicesRefreshedAt(providerId: string): Date | undefined {
    return this.lists.get(providerId)?.refreshedAt;
  }

  /** A complete list the provider's voice API just returned; an older list than the one held is ignored. */
  setVoices(providerId: string, voices: VoiceDescriptor[], refreshedAt: Date): void {
    const held = this.lists.get(providerId)?.refreshedAt;
    if (held && held >= refreshedAt) return;
    this.lists.set(providerId, { voices, refreshedAt });
    this.currentVersion += 1;
  }

  /** ISO 8601 time of the last successful smoke synthesis, or "never". */
  lastSmokeTest(providerId: string): string {
    return this.smokeTests.get(providerId)?.toISOString() ?? NEVER_SMOKE_TESTED;
  }

  recordSmokeTest(providerId: string, at: Date): void {
    const held = this.smokeTests.get(providerId);
    if (held && held >= at) return;
    this.smokeTests.set(providerId, at);
    this.currentVersion += 1;
  }

  /** Adopts what a refresher (this process or another) stored; malformed stored lists are skipped. */
  applyStored(entries: StoredCatalogEntry[]): void {
    for (const entry of entries) {
      if (entry.lastSmokeTestAt) this.recordSmokeTest(entry.providerId, entry.lastSmokeTestAt);
      if (entry.voicesRefreshedAt && Array.isArray(entry.voices) && entry.voices.every(isVoiceDescriptor)) {
        this.setVoices(entry.providerId, entry.voices, entry.voicesRefreshedAt);
      }
    }
  }
}
