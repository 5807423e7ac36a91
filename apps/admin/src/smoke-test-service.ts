// `smoke-test` outside a running embedded service: a registry built from this process's provider settings
// (the same variables the data plane reads), results stored in the database for every data plane to show.
import { providerEnvironmentShape, providerSettings, CATALOG_TASK_TIMEOUT_MS } from '@voice-router/data-plane';
import { createSqlCatalogStore, type Database } from '@voice-router/ledger';
import { CatalogState, createProviderRegistry, smokeTestProviders } from '@voice-router/providers';
import { parseEnvironment } from '@voice-router/service-kit';
import { z } from 'zod';
import type { AdminServices } from './commands.js';

export function directSmokeTest(database: Database): NonNullable<AdminServices['smokeTest']> {
  return async (providerIds) => {
    const environment = parseEnvironment('admin', z.object(providerEnvironmentShape));
    const registry = createProviderRegistry(providerSettings(environment));
    const store = createSqlCatalogStore(database.sql);
    const state = new CatalogState(() => registry.list());
    state.applyStored(await store.load());
    const logger = { info: () => undefined, warn: () => undefined };
    try {
      const ids = providerIds?.filter((id) => registry.isAvailable(id)) ?? undefined;
      return await smokeTestProviders({
        registry, state, store, logger, providerIds: ids, listingTimeoutMs: CATALOG_TASK_TIMEOUT_MS, timeoutMs: CATALOG_TASK_TIMEOUT_MS,
      });
    } finally {
      await registry.close();
    }
  };
}
