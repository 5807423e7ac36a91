import { describe, expect, it } from 'vitest';
import { parseEnvironment } from '@voice-router/service-kit';
import { workerEnvironmentSchema } from './environment.js';

describe('the worker configuration', () => {
  const base = { DATABASE_URL: 'postgresql://localhost/db', REDIS_URL: 'redis://localhost:6379' };

  it('refuses a reaper bound that would void streams the data plane still allows', () => {
    expect(() => parseEnvironment('worker', workerEnvironmentSchema, { ...base, RESERVATION_REAP_AFTER_MS: '300000' }))
      .toThrow(/STREAM_MAX_DURATION_MS: must be below RESERVATION_REAP_AFTER_MS \(300000 >= 300000\)/);
    expect(parseEnvironment('worker', workerEnvironmentSchema, { ...base, RESERVATION_REAP_AFTER_MS: '300001' }).RESERVATION_REAP_AFTER_MS).toBe(300_001);
  });

  it('schedules no smoke synthesis unless SMOKE_TEST_INTERVAL_MS is set (each one is billed upstream)', () => {
    const defaults = parseEnvironment('worker', workerEnvironmentSchema, base);
    expect(defaults.SMOKE_TEST_INTERVAL_MS).toBe(0);
    expect(defaults.VOICE_CATALOG_REFRESH_MS).toBe(3_600_000);
    expect(parseEnvironment('worker', workerEnvironmentSchema, { ...base, SMOKE_TEST_INTERVAL_MS: '86400000' }).SMOKE_TEST_INTERVAL_MS).toBe(86_400_000);
    expect(() => parseEnvironment('worker', workerEnvironmentSchema, { ...base, SMOKE_TEST_INTERVAL_MS: '500' })).toThrow(/SMOKE_TEST_INTERVAL_MS/);
  });

  it('writes settlements in two partitions by account unless SETTLEMENT_PARTITIONS says otherwise', () => {
    expect(parseEnvironment('worker', workerEnvironmentSchema, base).SETTLEMENT_PARTITIONS).toBe(2);
    expect(parseEnvironment('worker', workerEnvironmentSchema, { ...base, SETTLEMENT_PARTITIONS: '4' }).SETTLEMENT_PARTITIONS).toBe(4);
    for (const value of ['0', '1.5', '33']) {
      expect(() => parseEnvironment('worker', workerEnvironmentSchema, { ...base, SETTLEMENT_PARTITIONS: value })).toThrow(/SETTLEMENT_PARTITIONS/);
    }
  });
});
