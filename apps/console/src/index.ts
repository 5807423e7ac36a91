// @voice-router/console: the web console as an Express router, and the services interface the
// control plane implements for it.
export { createConsoleRouter, type ConsoleRouterOptions } from './console-router.js';
export { formatMicros, parseUsdToMicros } from './money.js';
export type {
  ConsoleAccount,
  ConsoleBilling,
  ConsoleBillingMethod,
  ConsoleCatalog,
  ConsoleCatalogModel,
  ConsoleCatalogProvider,
  ConsoleCatalogVoice,
  ConsoleSample,
  ConsoleVoiceFilter,
  ConsolePendingPayment,
  ConsoleTopUp,
  ConsoleInvitation,
  ConsoleKey,
  ConsoleKeyChanges,
  ConsoleLedgerRow,
  ConsoleMember,
  ConsoleServices,
  ConsoleSession,
  ConsoleSessionSummary,
  ConsoleUsage,
  ConsoleUser,
  Failure,
  Micros,
} from './console-services.js';
