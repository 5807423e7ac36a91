// Where run-time catalog facts are shared between processes (the database; see @voice-router/ledger's
// provider-catalog-state). Optional: a lone process without a store keeps them in memory only.

import type { VoiceDescriptor } from '../types.js';
import type { StoredCatalogEntry } from './catalog-state.js';

export type CatalogTask = 'voices' | 'smoke_test';

export interface CatalogStore {
  /** True when this caller should do `task` now (nobody claimed it within `intervalMs`; 0 always claims). */
  claim(providerId: string, task: CatalogTask, intervalMs: number): Promise<boolean>;
  saveVoices(providerId: string, voices: VoiceDescriptor[], refreshedAt: Date): Promise<void>;
  recordVoicesFailure(providerId: string, failure: string): Promise<void>;
  recordSmokeTest(providerId: string, outcome: { ok: true; at: Date } | { ok: false; failure: string }): Promise<void>;
  /** Rows updated after `changedAfter` (all rows without it). */
  load(changedAfter?: Date): Promise<StoredCatalogEntry[]>;
}

export interface CatalogLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}
