// @voice-router/ledger: the database (PostgreSQL or PGlite), its migrations, and the money operations.
export { openDatabase, type Database, type DatabaseOptions } from './database.js';
export { applyMigrations, readMigrations, migrationsDirectory, MigrationChecksumError } from './migrate.js';
export type { SqlClient } from './sql-client.js';
export { toMicros, microsToNumber, usdToMicros, costForCharacters } from './micros.js';
export type { LedgerRow, LedgerKind } from './operations/ledger-rows.js';
export { reserveCredit, type ReserveCreditInput, type ReserveCreditResult } from './operations/reserve-credit.js';
export { commitReservation, voidReservation, type SettlementOutcome, type CommitInput, type VoidInput } from './operations/settle-reservation.js';
export { reapReservations } from './operations/reap-reservations.js';
export { grantCredit, UnknownAccountError } from './operations/grant-credit.js';
export { getCredits, listActivity, auditWallet, type WalletState, type WalletAudit } from './operations/read-wallet.js';
export {
  createUser, findUserByEmail, createOrganization, addMember, listAccounts, normaliseEmail, DuplicateEmailError,
  type CreatedUser, type AccountSummary,
} from './operations/manage-accounts.js';
export {
  createApiKey, findActiveApiKey, revokeApiKey, hashApiKey, API_KEY_PREFIX,
  type CreatedApiKey, type ActiveApiKey, type ApiKeyLimits,
} from './operations/manage-api-keys.js';
export type { PrismaClient } from './generated/prisma/client.js';
