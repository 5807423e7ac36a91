// Users, organizations and memberships. Every account (personal or organization) gets one wallet.
import crypto from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { toMicros } from '../micros.js';

export class DuplicateEmailError extends Error {}

export interface CreatedUser {
  userId: string;
  email: string;
  personalAccountId: string;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function createUser(prisma: PrismaClient, input: { email: string }): Promise<CreatedUser> {
  const email = normaliseEmail(input.email);
  const userId = crypto.randomUUID();
  const accountId = crypto.randomUUID();
  try {
    await prisma.$transaction([
      prisma.user.create({ data: { id: userId, email } }),
      prisma.account.create({ data: { id: accountId, kind: 'personal', name: email, wallet: { create: {} } } }),
      prisma.membership.create({ data: { userId, accountId, role: 'owner' } }),
    ]);
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw new DuplicateEmailError(`a user with email ${email} exists`);
    throw error;
  }
  return { userId, email, personalAccountId: accountId };
}

export async function findUserByEmail(prisma: PrismaClient, email: string): Promise<CreatedUser | undefined> {
  const user = await prisma.user.findUnique({
    where: { email: normaliseEmail(email) },
    include: { memberships: { include: { account: true } } },
  });
  if (!user) return undefined;
  const personal = user.memberships.find((membership) => membership.account.kind === 'personal');
  if (!personal) return undefined;
  return { userId: user.id, email: user.email, personalAccountId: personal.accountId };
}

/**
 * `operatorManaged` marks an organization an operator created (`admin create-org`); with invitation-only
 * sign-up only such organizations' owners may invite people who have no user yet (see manage-invitations).
 */
export async function createOrganization(
  prisma: PrismaClient, input: { name: string; ownerUserId: string; operatorManaged?: boolean },
): Promise<{ accountId: string }> {
  const accountId = crypto.randomUUID();
  await prisma.$transaction([
    prisma.account.create({
      data: { id: accountId, kind: 'organization', name: input.name, operatorManaged: input.operatorManaged ?? false, wallet: { create: {} } },
    }),
    prisma.membership.create({ data: { userId: input.ownerUserId, accountId, role: 'owner' } }),
  ]);
  return { accountId };
}

export async function addMember(prisma: PrismaClient, input: { accountId: string; userId: string; role?: 'owner' | 'member' }): Promise<void> {
  await prisma.membership.upsert({
    where: { userId_accountId: { userId: input.userId, accountId: input.accountId } },
    create: { userId: input.userId, accountId: input.accountId, role: input.role ?? 'member' },
    update: {},
  });
}

export interface AccountSummary {
  accountId: string;
  kind: string;
  name: string;
  members: string[];
  balanceMicros: bigint;
  reservedMicros: bigint;
  createdAt: Date;
}

export async function listAccounts(prisma: PrismaClient): Promise<AccountSummary[]> {
  const accounts = await prisma.account.findMany({
    orderBy: { createdAt: 'asc' },
    include: { wallet: true, memberships: { include: { user: true } } },
  });
  return accounts.map((account) => ({
    accountId: account.id,
    kind: account.kind,
    name: account.name,
    members: account.memberships.map((membership) => membership.user.email),
    balanceMicros: toMicros(account.wallet?.balanceMicros ?? 0n),
    reservedMicros: toMicros(account.wallet?.reservedMicros ?? 0n),
    createdAt: account.createdAt,
  }));
}
