// Operator commands. The same functions run against the database directly (CLI, no service or
// PostgreSQL) or inside the running embedded service (through the loopback admin endpoint).
import { z } from 'zod';
import {
  addMember, applyMigrations, auditWallet, createApiKey, createOrganization, createUser, findUserByEmail, getCredits, grantCredit,
  IdempotencyConflictError, listAccounts, microsToNumber, revokeApiKey, revokeUserSessions, setPasswordHash, usdToMicros, type Database,
} from '@voice-router/ledger';
import { hashPassword, passwordProblem } from '@voice-router/service-kit';

const email = z.email();

export const AdminCommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('create-user'), email }),
  z.object({ command: z.literal('create-org'), name: z.string().min(1).max(200), owner: email }),
  z.object({ command: z.literal('add-member'), org: z.uuid(), email }),
  z.object({ command: z.literal('create-key'), email, org: z.uuid().optional(), name: z.string().min(1).max(200).default('default') }),
  z.object({ command: z.literal('revoke-key'), id: z.uuid() }),
  z.object({
    command: z.literal('grant'),
    email,
    usd: z.string().regex(/^\d{1,12}(\.\d{1,6})?$/, 'a USD amount like 5 or 12.50'),
    org: z.uuid().optional(),
    /** A retried grant with the same key credits once (stored namespaced as `admin:<key>`). */
    'idempotency-key': z.string().min(1).max(200).regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces').optional(),
  }),
  z.object({ command: z.literal('set-password'), email, password: z.string() }),
  z.object({ command: z.literal('list-accounts') }),
  z.object({ command: z.literal('audit'), email, org: z.uuid().optional() }),
  z.object({ command: z.literal('migrate') }),
  /** One real (billed) synthesis per configured provider, or just `provider`; success moves its lastSmokeTest. */
  z.object({ command: z.literal('smoke-test'), provider: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'a provider id such as openai').optional() }),
]);

export type AdminCommand = z.infer<typeof AdminCommandSchema>;

export class AdminCommandError extends Error {}

/** What a command needs beyond the database; the embedded service passes its own, the CLI builds its own. */
export interface AdminServices {
  /** Smoke-tests the given providers (all configured ones when absent) and stores the results. */
  smokeTest?: (providerIds?: string[]) => Promise<Array<{ providerId: string; ok: boolean | 'skipped' }>>;
}

async function requireUser(database: Database, address: string) {
  const user = await findUserByEmail(database.prisma, address);
  if (!user) throw new AdminCommandError(`no user with email ${address} (create it with: create-user --email ${address})`);
  return user;
}

/** The account a command acts on: the organization if given (the user must belong to it), else the user's personal one. */
async function targetAccount(database: Database, address: string, org: string | undefined): Promise<string> {
  const user = await requireUser(database, address);
  if (!org) return user.personalAccountId;
  const membership = await database.prisma.membership.findUnique({ where: { userId_accountId: { userId: user.userId, accountId: org } } });
  if (!membership) throw new AdminCommandError(`${address} is not a member of organization ${org}`);
  return org;
}

export async function runAdminCommand(database: Database, command: AdminCommand, services: AdminServices = {}): Promise<Record<string, unknown>> {
  switch (command.command) {
    case 'smoke-test': {
      if (!services.smokeTest) throw new AdminCommandError('smoke tests are not available here');
      const outcomes = await services.smokeTest(command.provider ? [command.provider] : undefined);
      if (command.provider && outcomes.length === 0) throw new AdminCommandError(`provider ${command.provider} is not configured here`);
      return { results: outcomes.map((outcome) => ('at' in outcome && outcome.at instanceof Date ? { ...outcome, at: outcome.at.toISOString() } : outcome)) };
    }
    case 'create-user':
      return { ...(await createUser(database.prisma, { email: command.email })) };
    case 'create-org': {
      const owner = await requireUser(database, command.owner);
      // Operator-made: with SIGNUP_MODE=invite its owners may invite people who have no user yet.
      const created = await createOrganization(database.prisma, { name: command.name, ownerUserId: owner.userId, operatorManaged: true });
      return { ...created, name: command.name };
    }
    case 'add-member': {
      const user = await requireUser(database, command.email);
      await addMember(database.prisma, { accountId: command.org, userId: user.userId });
      return { org: command.org, userId: user.userId };
    }
    case 'create-key': {
      const user = await requireUser(database, command.email);
      const accountId = await targetAccount(database, command.email, command.org);
      const key = await createApiKey(database.prisma, { accountId, name: command.name, createdByUserId: user.userId });
      return { id: key.id, accountId, name: key.name, keyValue: key.keyValue, note: 'the key is shown once; store it now' };
    }
    case 'revoke-key':
      return { id: command.id, revoked: await revokeApiKey(database.prisma, { id: command.id }) };
    case 'grant': {
      const accountId = await targetAccount(database, command.email, command.org);
      const amountMicros = usdToMicros(command.usd);
      if (amountMicros <= 0n) throw new AdminCommandError('the amount must be positive');
      const key = command['idempotency-key'];
      let result;
      try {
        result = await grantCredit(database.sql, {
          accountId, amountMicros, source: 'admin', metadata: { by: 'operator' }, idempotencyKey: key === undefined ? undefined : `admin:${key}`,
        });
      } catch (error) {
        if (!(error instanceof IdempotencyConflictError)) throw error;
        throw new AdminCommandError(`idempotency key ${key} was already used for a different grant (another account or amount); nothing was credited`);
      }
      // For a duplicate the ledger answers with the first grant's row; the balance shown is today's.
      const balance = result.duplicate ? (await getCredits(database.sql, accountId))!.balanceMicros : result.balanceMicros;
      return {
        accountId,
        grantedMicros: microsToNumber(amountMicros),
        balanceMicros: microsToNumber(balance),
        entryId: result.entryId,
        ...(key === undefined ? {} : { idempotencyKey: key, duplicate: result.duplicate }),
        ...(result.duplicate ? { note: 'this key was already used for this grant: nothing was credited this time' } : {}),
      };
    }
    case 'set-password': {
      const user = await requireUser(database, command.email);
      const problem = passwordProblem(command.password);
      if (problem) throw new AdminCommandError(problem);
      await setPasswordHash(database.sql, user.userId, await hashPassword(command.password));
      // A new password ends every session: whoever held the old one is signed out everywhere.
      const revokedSessions = await revokeUserSessions(database.sql, { userId: user.userId });
      return { userId: user.userId, email: user.email, passwordSet: true, revokedSessions };
    }
    case 'list-accounts':
      return {
        accounts: (await listAccounts(database.prisma)).map((account) => ({
          ...account,
          balanceMicros: microsToNumber(account.balanceMicros),
          reservedMicros: microsToNumber(account.reservedMicros),
          createdAt: account.createdAt.toISOString(),
        })),
      };
    case 'migrate':
      // The CLI opens the database without migrating it first, so this reports what it applied
      // (a deployment's migration Job). Inside the running embedded service it finds nothing to do.
      return { applied: await applyMigrations(database.sql) };
    case 'audit': {
      const accountId = await targetAccount(database, command.email, command.org);
      const audit = await auditWallet(database.sql, accountId);
      return {
        accountId,
        consistent: audit.consistent,
        balanceMicros: microsToNumber(audit.balanceMicros),
        reservedMicros: microsToNumber(audit.reservedMicros),
        sumOfDeltas: microsToNumber(audit.sumOfDeltas),
        pendingReservedMicros: microsToNumber(audit.pendingReservedMicros),
      };
    }
  }
}
