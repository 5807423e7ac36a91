// @voice-router/ledger: the database (PostgreSQL or PGlite), its migrations, and the money operations.
export { openDatabase, type Database, type DatabaseOptions, type PgliteThread } from './database.js';
export { pgliteProcessNodeFlags, withPgliteProcessEnvironment } from './pglite-process-environment.js';
export { lockDataDir, dataDirLockFile, DataDirLockedError, processAlive, type DataDirLock } from './data-dir-lock.js';
export { startPgliteVacuum, startPostgresMaintenance, maintenanceFor, PGLITE_VACUUM_INTERVAL_MS, type PgliteVacuum, type MaintenanceAction } from './pglite-vacuum.js';
export { applyMigrations, readMigrations, migrationsDirectory, MigrationChecksumError } from './migrate.js';
export type { SqlClient } from './sql-client.js';
export { backgroundOf, BACKGROUND_MAX_WAIT_MS } from './sql-client.js';
export { toMicros, microsToNumber, usdToMicros, costForCharacters } from './micros.js';
export type { LedgerRow, LedgerKind } from './operations/ledger-rows.js';
export { reserveCreditAlone, type ReserveCreditInput, type ReserveCreditResult } from './operations/reserve-credit.js';
export { reserveCredit, reserveCreditBatch, reserveCreditAcross, createReservationBatcher, MAX_RESERVE_BATCH, type ReservationBatcher } from './operations/reserve-batch.js';
export { spendWindowResets, type SpendCapKind } from './operations/spend-windows.js';
export { updateApiKey, type ApiKeyChanges } from './operations/update-api-key.js';
export { commitReservation, voidReservation, type SettlementOutcome, type CommitInput, type VoidInput } from './operations/settle-reservation.js';
export { commitReservations, MAX_COMMIT_BATCH } from './operations/commit-reservations.js';
export { reapReservations } from './operations/reap-reservations.js';
export { openReservations, type OpenReservations } from './operations/open-reservations.js';
export { grantCredit, IdempotencyConflictError, UnknownAccountError, type GrantCreditInput, type GrantCreditResult } from './operations/grant-credit.js';
export { getCredits, listActivity, auditWallet, type WalletState, type WalletAudit } from './operations/read-wallet.js';
export {
  createUser, findUserByEmail, createOrganization, addMember, listAccounts, normaliseEmail, DuplicateEmailError,
  type CreatedUser, type AccountSummary,
} from './operations/manage-accounts.js';
export {
  createApiKey, findActiveApiKey, findActiveApiKeys, revokeApiKey, hashApiKey, API_KEY_PREFIX,
  type CreatedApiKey, type ActiveApiKey, type ApiKeyLimits,
} from './operations/manage-api-keys.js';
export type { PrismaClient } from './generated/prisma/client.js';
export {
  createSession, findActiveSession, revokeSession, listUserSessions, revokeUserSession, revokeUserSessions, SESSION_PREFIX,
  type ActiveSession, type SessionSummary,
} from './operations/manage-sessions.js';
export {
  createDeviceCode, pollDeviceCode, lookUpUserCode, decideUserCode, normaliseUserCode, generateUserCode,
  type PollOutcome, type UserCodeLookup,
} from './operations/manage-device-codes.js';
export { listUserAccounts, resolveSessionAccount, isMember, type UserAccount, type AccountResolution } from './operations/resolve-account.js';
export { listAccountKeys, findAccountKey, revokeAccountKey, type AccountKey, type RevokeKeyOutcome } from './operations/account-keys.js';
export { memberRole, removeMember, type MemberRole, type RemoveMemberOutcome } from './operations/manage-memberships.js';
export { usageReport, type UsageReport } from './operations/usage-report.js';
export {
  createInvitation, listInvitations, acceptInvitation, findPendingInvitation, type InvitationRow, type AcceptOutcome, type CreateInvitationOutcome,
} from './operations/manage-invitations.js';
export { setPasswordHash, findLoginUser } from './operations/manage-passwords.js';
export { sha256 } from './operations/secret-tokens.js';
export { debitWallet, findLedgerEntryByKey, type DebitWalletInput, type DebitWalletResult } from './operations/debit-wallet.js';
export {
  findBillingCustomer, saveBillingCustomer, findAccountByBillingCustomer, recordTopUp, findTopUp, listTopUps, paymentIntentCreditKey,
  type TopUpRecord, type TopUpStatus,
} from './operations/billing-records.js';
export {
  claimCatalogTask, saveProviderVoices, recordVoicesFailure, recordSmokeTest, loadProviderStates, createSqlCatalogStore,
  type CatalogTask, type StoredProviderState,
} from './operations/provider-catalog-state.js';
export {
  allowanceStanding, openAllowance, openAllowances, openAllowanceAlone, releaseAllowance, voidAllowance, settleAllowanceSpends, ALLOWANCE_MAX_AGE_MS, MAX_SPEND_BATCH,
  type AllowanceSpend, type AllowanceStanding, type OpenAllowanceInput, type OpenAllowanceResult, type ReleaseAllowanceInput,
} from './operations/allowances.js';
export {
  createAllowanceKeeper, DEFAULT_ALLOWANCE_SETTINGS, type AllowanceKeeper, type AllowancePayment, type AllowancePeers, type AllowanceSettings, type KeeperReserveResult,
  type KeeperLogger,
} from './allowance-keeper.js';
