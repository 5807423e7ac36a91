// Operator commands. The same functions run against the database directly (CLI, no service or
// PostgreSQL) or inside the running embedded service (through the loopback admin endpoint).
import { z } from 'zod';
import {
  addMember, applyMigrations, auditWallet, createApiKey, createOrganization, createUser, findUserByEmail, grantCredit, listAccounts,
  microsToNumber, revokeApiKey, setPasswordHash, usdToMicros, type Database,
} from '@voice-router/ledger';
import { hashPassword, passwordProblem } from '@voice-router/service-kit';

const email = z.email();

export const AdminCommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('create-user'), email }),
  z.object({ command: z.literal('create-org'), name: z.string().min(1).max(200), owner: email }),
  z.object({ command: z.literal('add-member'), org: z.uuid(), email }),
  z.object({ command: z.literal('create-key'), email, org: z.uuid().optional(), name: z.string().min(1).max(200).default('default') }),
  z.object({ command: z.literal('revoke-key'), id: z.uuid() }),
  z.object({ command: z.literal('grant'), email, usd: z.string().regex(/^\d{1,12}(\.\d{1,6})?$/, 'a USD amount like 5 or 12.50'), org: z.uuid().optional() }),
  z.object({ command: z.literal('set-password'), email, password: z.string() }),
  z.object({ command: z.literal('list-accounts') }),
  z.object({ command: z.literal('audit'), email, org: z.uuid().optional() }),
  z.object({ command: z.literal('migrate') }),
]);

export type AdminCommand = z.infer<typeof AdminCommandSchema>;

export class AdminCommandError extends Error {}

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

export async function runAdminCommand(database: Database, command: AdminCommand): Promise<Record<string, unknown>> {
  switch (command.command) {
    case 'create-user':
      return { ...(await createUser(database.prisma, { email: command.email })) };
    case 'create-org': {
      const owner = await requireUser(database, command.owner);
      return { ...(await createOrganization(database.prisma, { name: command.name, ownerUserId: owner.userId })), name: command.name };
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
      const result = await grantCredit(database.sql, { accountId, amountMicros, source: 'admin', metadata: { by: 'operator' } });
      return { accountId, grantedMicros: microsToNumber(amountMicros), balanceMicros: microsToNumber(result.balanceMicros), entryId: result.entryId };
    }
    case 'set-password': {
      const user = await requireUser(database, command.email);
      const problem = passwordProblem(command.password);
      if (problem) throw new AdminCommandError(problem);
      await setPasswordHash(database.sql, user.userId, await hashPassword(command.password));
      return { userId: user.userId, email: user.email, passwordSet: true };
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
