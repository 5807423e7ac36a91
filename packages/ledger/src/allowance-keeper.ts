// The data plane's side of allowances (operations/allowances.ts): for each hot account, one allowance
// held in memory and spent request by request without a database round trip.
//
// - An account is hot once this process sees `hotRequestsPerSecond` of its requests within one second;
//   until then (and for keys with spend caps, free requests, and wallets too small to share) every
//   request reserves its own cost as before.
// - An allowance takes at most `maxMicros` and at most 1/`shareOfSpendable` of what the wallet can
//   spend, and only if it pays for at least `minRequests` requests of the size asking. So a wallet near
//   empty is served request by request, and no one is refused money they have: a request the allowance
//   cannot cover reserves on its own, and if the wallet refuses it while this process holds unspent
//   money of the account, or is moving some (a return on its way, an allowance being opened), or one of
//   its returns landed while the request was refused, that money is returned first and the request
//   tried again. With several data planes (`peers`), the others are then asked to return what they hold
//   of the account, and the request is tried again as it comes back (PEER_RETURN_WAITS_MS), as long as
//   the database shows allowances of the account still open; at once if the wallet can pay by then.
// - An allowance is retired after `idleMs` without a request, after `maxAgeMs`, or when it runs short;
//   what it has not spent is returned at once, and the money of requests still streaming when they end.
import crypto from 'node:crypto';
import { backgroundOf, type SqlClient } from './sql-client.js';
import { ALLOWANCE_MAX_AGE_MS, allowanceStanding, openAllowance, releaseAllowance } from './operations/allowances.js';
import { reserveCredit } from './operations/reserve-batch.js';
import { checksSpendCaps, type ReserveCreditInput, type ReserveCreditResult } from './operations/reserve-credit.js';

export interface AllowanceSettings {
  /** The most one allowance takes (micro-dollars); 0 switches allowances off. */
  maxMicros: bigint;
  hotRequestsPerSecond: number;
  shareOfSpendable: bigint;
  minRequests: number;
  idleMs: number;
  /** At most ALLOWANCE_MAX_AGE_MS (the reaper counts on it). */
  maxAgeMs: number;
}

export const DEFAULT_ALLOWANCE_SETTINGS: AllowanceSettings = {
  maxMicros: 1_000_000n,
  hotRequestsPerSecond: 2,
  shareOfSpendable: 20n,
  minRequests: 8,
  idleMs: 1_000,
  maxAgeMs: ALLOWANCE_MAX_AGE_MS,
};

/** What a settlement of a request paid from an allowance carries, so that the request's row can be written. */
export interface AllowancePayment {
  id: string;
  accountId: string;
  apiKeyId: string | null;
  /** Decimal string (JSON has no bigint). */
  amountMicros: string;
  provider: string;
  model: string;
  characters: number;
}

/**
 * How a data plane reaches the others of its deployment (scaled out: Redis). ask() reaches every data
 * plane, this one included, and each answers with returnHeld(accountId).
 */
export interface AllowancePeers {
  ask(accountId: string): void;
}

/**
 * After a refusal, the waits before each new try while other data planes return what they hold (a
 * Redis message and one database transaction away): a request the wallet cannot pay waits at most
 * their sum, and only while the account has allowances open on other data planes.
 */
const PEER_RETURN_WAITS_MS = [10, 30, 60, 150, 300] as const;

/** The next allowance is opened once less than 1/RENEW_LEFT_PARTS of the grant is left, or RENEW_AT_AGE of its life has passed. */
const RENEW_LEFT_PARTS = 4n;
const RENEW_AT_AGE = 0.75;

/** One account is asked about at most this often (many requests are refused at once when a wallet runs dry). */
const PEER_ASK_INTERVAL_MS = 10;

export type KeeperReserveResult = { ok: true; allowanceId?: string } | Exclude<ReserveCreditResult, { ok: true }>;

export interface AllowanceKeeper {
  reserve(input: ReserveCreditInput): Promise<KeeperReserveResult>;
  /**
   * The request path decided this reservation's settlement. For a request paid from an allowance, the
   * payment its settlement must carry (and a void puts the amount back into what the allowance may spend).
   */
  settled(reservationId: string, action: 'commit' | 'void'): AllowancePayment | undefined;
  /**
   * Returns what this process's allowances of the account hold unspent and waits until the database has
   * it (another data plane was refused a request of the account); opens none for it for a while.
   */
  returnHeld(accountId: string): Promise<void>;
  /** Allowances held now, the money they hold unspent, and since start: allowances taken, requests paid from them (metrics). */
  stats(): { allowances: number; unspentMicros: bigint; opened: number; payments: number };
  /** Retires every allowance and waits for what they return. */
  close(): Promise<void>;
}

export interface KeeperLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

interface Held {
  id: string;
  accountId: string;
  /** May still be spent here. */
  remaining: bigint;
  /** What the database granted. */
  granted: bigint;
  openedAt: number;
  lastUsedAt: number;
  /** Requests paid from it whose settlement is not decided yet. */
  inFlight: number;
  retired: boolean;
  finalSent: boolean;
  /** Releases go out one after the other. */
  releases: Promise<void>;
}

interface Paid {
  held: Held;
  input: ReserveCreditInput;
}

const RELEASE_ATTEMPTS = 5;

export function createAllowanceKeeper(sql: SqlClient, settings: AllowanceSettings, logger?: KeeperLogger, peers?: AllowancePeers): AllowanceKeeper {
  if (settings.maxAgeMs > ALLOWANCE_MAX_AGE_MS) throw new RangeError(`an allowance may be used for at most ${ALLOWANCE_MAX_AGE_MS} ms`);
  const enabled = settings.maxMicros > 0n;
  const current = new Map<string, Held>();
  /** Every allowance not yet finally released, current or retired. */
  const all = new Set<Held>();
  const paid = new Map<string, Paid>();
  /** Returns on their way to the database, with the allowance of each (close waits for them). */
  const releasing = new Map<Promise<void>, Held>();
  let opened = 0;
  let payments = 0;
  let closing = false;
  const opening = new Map<string, Promise<Held | undefined>>();
  const heat = new Map<string, { windowStart: number; count: number }>();
  /** Accounts whose wallet was too small for an allowance: not asked again before this time. */
  const coldUntil = new Map<string, number>();
  /** When each account's other holders were last asked to return (peers). */
  const asked = new Map<string, number>();
  /**
   * How many of this process's returns of each account have reached the database, and when the last
   * did. A refused request compares it before and after: a return that landed meanwhile may have
   * brought the money it was refused for.
   */
  const landed = new Map<string, { count: number; at: number }>();
  const landedOf = (accountId: string): number => landed.get(accountId)?.count ?? 0;

  function isHot(accountId: string, now: number): boolean {
    let entry = heat.get(accountId);
    if (!entry || now - entry.windowStart >= 1_000) {
      entry = { windowStart: now, count: 0 };
      heat.set(accountId, entry);
    }
    entry.count += 1;
    return entry.count >= settings.hotRequestsPerSecond;
  }

  function release(held: Held, amount: bigint, final: boolean): Promise<void> {
    const chain = held.releases.then(async () => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          // No request waits for a return (one that needs the money waits for `releasing` itself).
          await releaseAllowance(backgroundOf(sql), { allowanceId: held.id, accountId: held.accountId, amountMicros: amount, final });
          // Counted before the return leaves `releasing`, so a refused request sees it in one or the other.
          landed.set(held.accountId, { count: landedOf(held.accountId) + 1, at: Date.now() });
          return;
        } catch (error) {
          if (attempt >= RELEASE_ATTEMPTS) {
            // Still held in the database; the reaper returns it after its bound.
            logger?.warn('could not return an allowance; the reaper will', { allowanceId: held.id, error });
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
        }
      }
    });
    held.releases = chain;
    releasing.set(chain, held);
    void chain.finally(() => releasing.delete(chain));
    return chain;
  }

  /** Returns what the allowance has not spent; the final return once no request of it is in flight. */
  function returnUnspent(held: Held): Promise<void> {
    const amount = held.remaining;
    held.remaining = 0n;
    const final = held.retired && held.inFlight === 0 && !held.finalSent;
    if (final) {
      held.finalSent = true;
      all.delete(held);
    }
    if (amount === 0n && !final) return held.releases;
    return release(held, amount, final);
  }

  function retire(held: Held): Promise<void> {
    if (!held.retired) {
      held.retired = true;
      if (current.get(held.accountId) === held) current.delete(held.accountId);
    }
    return returnUnspent(held);
  }

  function usable(held: Held, amount: bigint, now: number): boolean {
    return !held.retired && held.remaining >= amount && now - held.openedAt < settings.maxAgeMs;
  }

  function take(held: Held, input: ReserveCreditInput, now: number): KeeperReserveResult {
    held.remaining -= input.amountMicros;
    held.inFlight += 1;
    held.lastUsedAt = now;
    paid.set(input.reservationId, { held, input });
    payments += 1;
    if (wearingOut(held, now)) renew(held.accountId, input.amountMicros, now);
    return { ok: true, allowanceId: held.id };
  }

  /** A quarter of the grant left, or three quarters of the allowance's life gone: time to open the next one. */
  function wearingOut(held: Held, now: number): boolean {
    return held.remaining * RENEW_LEFT_PARTS < held.granted || now - held.openedAt >= settings.maxAgeMs * RENEW_AT_AGE;
  }

  /** One opening at a time per account: the one in flight, or a new one. */
  function opener(accountId: string, amount: bigint): Promise<Held | undefined> {
    let pending = opening.get(accountId);
    if (!pending) {
      pending = open(accountId, amount).finally(() => opening.delete(accountId));
      opening.set(accountId, pending);
    }
    return pending;
  }

  /**
   * Opens the account's next allowance in the background while the current one still pays, so that a
   * hot account's requests do not wait for the database when one allowance ends and the next begins.
   */
  function renew(accountId: string, amount: bigint, now: number): void {
    if (closing || opening.has(accountId) || (coldUntil.get(accountId) ?? 0) > now) return;
    void opener(accountId, amount);
  }

  async function open(accountId: string, amount: bigint): Promise<Held | undefined> {
    const id = crypto.randomUUID();
    const minMicros = amount * BigInt(settings.minRequests);
    if (minMicros > settings.maxMicros) return undefined;
    let result;
    try {
      result = await openAllowance(sql, { allowanceId: id, accountId, maxMicros: settings.maxMicros, shareOfSpendable: settings.shareOfSpendable, minMicros });
    } catch (error) {
      logger?.warn('could not open an allowance; reserving request by request', { error });
      return undefined;
    }
    const now = Date.now();
    if (!result.ok) {
      coldUntil.set(accountId, now + settings.idleMs);
      return undefined;
    }
    const held: Held = {
      id, accountId, remaining: result.amountMicros, granted: result.amountMicros, openedAt: now, lastUsedAt: now, inFlight: 0, retired: false,
      finalSent: false, releases: Promise.resolve(),
    };
    all.add(held);
    // Opened ahead (renew): the one it replaces returns what it has not spent.
    const previous = current.get(accountId);
    current.set(accountId, held);
    if (previous) void retire(previous);
    opened += 1;
    return held;
  }

  /** What this process holds or is moving of the account: unspent money goes back, and everything on its way is waited for. */
  function returnOwn(accountId: string): Array<Promise<unknown>> {
    const moving: Array<Promise<unknown>> = [];
    const pending = opening.get(accountId);
    // An allowance the database has granted but this process has not heard back about yet: once it
    // has, it goes back too.
    if (pending) moving.push(pending.then(() => Promise.all(returnUnspentOf(accountId))));
    for (const [chain, held] of releasing) if (held.accountId === accountId) moving.push(chain);
    moving.push(...returnUnspentOf(accountId));
    return moving;
  }

  function returnUnspentOf(accountId: string): Array<Promise<void>> {
    const returns: Array<Promise<void>> = [];
    for (const held of all) if (held.accountId === accountId && held.remaining > 0n) returns.push(retire(held));
    return returns;
  }

  /** This process's allowances of the account that the database may still show open. */
  function ownIds(accountId: string): string[] {
    const ids = new Set<string>();
    for (const held of all) if (held.accountId === accountId) ids.add(held.id);
    for (const held of releasing.values()) if (held.accountId === accountId) ids.add(held.id);
    return [...ids];
  }

  function askPeers(accountId: string): void {
    const now = Date.now();
    if (now - (asked.get(accountId) ?? Number.NEGATIVE_INFINITY) < PEER_ASK_INTERVAL_MS) return;
    asked.set(accountId, now);
    peers!.ask(accountId);
  }

  /** Reservations tried for one request, with this process's money returned, before peers are asked. */
  const RESERVE_ATTEMPTS = 3;

  async function alone(input: ReserveCreditInput): Promise<KeeperReserveResult> {
    const { accountId } = input;
    let seen = landedOf(accountId);
    let result = await reserveCredit(sql, input);
    const short = () => !result.ok && result.reason === 'insufficient_credit';
    // Money this process holds or is moving for the account goes back before anyone is told the wallet
    // is short: unspent allowances are returned, and the returns and the opening already on their way
    // are waited for (a return still in flight, or an allowance the database has granted but this
    // process has not heard of yet, would otherwise refuse a request the wallet can pay). A return of
    // another request's that landed while this one was refused counts too: it is tried again.
    for (let attempt = 1; attempt < RESERVE_ATTEMPTS && short(); attempt += 1) {
      const moving = returnOwn(accountId);
      if (moving.length === 0 && landedOf(accountId) === seen) break;
      await Promise.all(moving);
      seen = landedOf(accountId);
      result = await reserveCredit(sql, input);
    }
    // Other data planes' allowances: they are asked to return theirs, and the request tried again as
    // the money comes back. Each look reads what the others hold and what the wallet can spend at one
    // instant, so a return that landed just after a refusal is tried again, not missed: the request is
    // refused only once the wallet is short while no other data plane holds money of the account (or
    // after the last wait). This one's own allowances are out of the count: what they still hold is
    // the money of its requests in flight.
    if (peers) {
      for (let round = 0; short() && round <= PEER_RETURN_WAITS_MS.length; round += 1) {
        const standing = await allowanceStanding(sql, accountId, ownIds(accountId));
        if (standing.spendableMicros < input.amountMicros) {
          if (standing.heldMicros === 0n || round === PEER_RETURN_WAITS_MS.length) break;
          askPeers(accountId);
          await new Promise((resolve) => setTimeout(resolve, PEER_RETURN_WAITS_MS[round]));
        }
        result = await reserveCredit(sql, input);
      }
    }
    return result.ok ? { ok: true } : result;
  }

  async function reserve(input: ReserveCreditInput): Promise<KeeperReserveResult> {
    if (!enabled || input.amountMicros === 0n || checksSpendCaps(input)) return alone(input);
    const now = Date.now();
    const hot = isHot(input.accountId, now);
    const held = current.get(input.accountId);
    if (held && usable(held, input.amountMicros, now)) return take(held, input, now);
    if (held) void retire(held);
    if (!hot || (coldUntil.get(input.accountId) ?? 0) > now) return alone(input);
    // Wait for the allowance being opened (one at a time per account); when others empty it first, the
    // next one is opened, a few times at most before this request reserves on its own.
    for (let attempt = 0; attempt < 8; attempt += 1) {
      if (!opening.has(input.accountId)) {
        const stale = current.get(input.accountId);
        if (stale) void retire(stale);
      }
      const fresh = await opener(input.accountId, input.amountMicros);
      if (!fresh) break;
      const later = Date.now();
      const ready = current.get(input.accountId);
      if (ready && usable(ready, input.amountMicros, later)) return take(ready, input, later);
    }
    return alone(input);
  }

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const held of current.values()) {
      if (now - held.lastUsedAt >= settings.idleMs || now - held.openedAt >= settings.maxAgeMs) void retire(held);
    }
    for (const [accountId, entry] of heat) if (now - entry.windowStart >= 2_000) heat.delete(accountId);
    for (const [accountId, until] of coldUntil) if (until <= now) coldUntil.delete(accountId);
    for (const [accountId, at] of asked) if (now - at >= 1_000) asked.delete(accountId);
    for (const [accountId, entry] of landed) if (now - entry.at >= 2_000) landed.delete(accountId);
  }, Math.max(50, Math.min(250, settings.idleMs)));
  sweep.unref();

  return {
    reserve,
    async returnHeld(accountId) {
      coldUntil.set(accountId, Date.now() + settings.idleMs);
      await Promise.all(returnOwn(accountId));
    },
    settled(reservationId, action) {
      const entry = paid.get(reservationId);
      if (!entry) return undefined;
      paid.delete(reservationId);
      const { held, input } = entry;
      held.inFlight -= 1;
      if (action === 'void') held.remaining += input.amountMicros;
      if (held.retired && (held.inFlight === 0 || held.remaining > 0n)) void returnUnspent(held);
      return {
        id: held.id, accountId: input.accountId, apiKeyId: input.apiKeyId, amountMicros: input.amountMicros.toString(),
        provider: input.provider, model: input.model, characters: input.characters,
      };
    },
    stats() {
      let unspentMicros = 0n;
      for (const held of all) unspentMicros += held.remaining;
      return { allowances: all.size, unspentMicros, opened, payments };
    },
    async close() {
      closing = true;
      clearInterval(sweep);
      // Openings on their way (a renewal) land first, so that what they bring goes back too.
      await Promise.all([...opening.values()]);
      await Promise.all([...all].map((held) => retire(held)));
      await Promise.all([...releasing.keys()]);
    },
  };
}
