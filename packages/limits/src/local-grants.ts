// Per-key grants for the Redis limiter: the answer to "one Redis round trip per request" for keys whose
// limits are roomy, in the same way the data plane holds money allowances (RFC 4006's credit control).
// A replica counts a few of the key's requests in the shared rate window ahead of time and holds a few
// spare leases in the key's shared lease set; it then admits a stream with neither a round trip nor a
// wait (a counted request and a spare lease), and tops the grant up in the background. Both halves are
// taken from the shared counters, so the replicas together never admit more than the key's limits; what
// one replica holds unused can only make another refuse a little early. That share is kept small: at
// most 1/32 of each limit per replica (and at most 64 requests, 16 leases); counted requests are dropped
// when their window ends; spare leases go back after a second without use, while the counted requests
// stay for the key's next requests in the same window (dropping them would shrink a slow client's limit).
// Keys with tight limits (the defaults: 600 a minute, 8 streams) get no grant and keep the exact
// per-request check.
import type { KeyLimits } from './key-limiter.js';

/** A lease in a key's lease set: the set's Redis key and the member. */
export interface Lease {
  setKey: string;
  id: string;
}

/** Requests counted ahead per replica: 1/32 of the rate limit, at most 64. */
export const grantRequests = (limits: KeyLimits) => Math.min(64, Math.floor(limits.rateLimitPerMinute / 32));
/** Spare leases per replica: 1/32 of the concurrency limit, at most 16. */
export const grantLeases = (limits: KeyLimits) => Math.min(16, Math.floor(limits.maxConcurrency / 32));
/** A key gets a grant when both halves hold at least two (limits of at least 64); smaller limits keep the per-request check. */
export const grantable = (limits: KeyLimits) => grantRequests(limits) >= 2 && grantLeases(limits) >= 2;

/** What TAKE_GRANT gave: requests counted, leases added, and when the counted requests' window ends. */
export interface GrantReply {
  requests: number;
  leases: Lease[];
  /** Local time by which the window the requests were counted in has ended (the request's send time + the window's TTL). */
  validUntil: number;
}

export class KeyGrant {
  readonly limits: KeyLimits;
  readonly maxRequests: number;
  readonly maxLeases: number;
  #requests = 0;
  #validUntil = 0;
  readonly #spares: Lease[] = [];
  /** A top-up is on its way. */
  refilling = false;
  /** No top-up before this time: the last one found the window spent or every slot taken. */
  refillAfter = 0;
  /** When a request of the key last came (set by the limiter). */
  lastUsed: number;

  constructor(limits: KeyLimits, now: number) {
    this.limits = limits;
    this.maxRequests = grantRequests(limits);
    this.maxLeases = grantLeases(limits);
    this.lastUsed = now;
  }

  matches(limits: KeyLimits): boolean {
    return limits.rateLimitPerMinute === this.limits.rateLimitPerMinute && limits.maxConcurrency === this.limits.maxConcurrency;
  }

  /** Counted requests still usable at `now` (none once their window has ended). */
  requests(now: number): number {
    return now < this.#validUntil ? this.#requests : 0;
  }

  /** One counted request, or false. For requests that take no lease. */
  takeRequest(now: number): boolean {
    if (this.requests(now) === 0) return false;
    this.#requests -= 1;
    return true;
  }

  /** One counted request and one spare lease, or undefined (then nothing is taken). */
  takeStream(now: number): Lease | undefined {
    if (this.requests(now) === 0 || this.#spares.length === 0) return undefined;
    this.#requests -= 1;
    return this.#spares.pop();
  }

  /** Keeps a lease whose stream ended as a spare, when there is room; false when the caller must release it. */
  giveBack(lease: Lease): boolean {
    if (this.#spares.length >= this.maxLeases) return false;
    this.#spares.push(lease);
    return true;
  }

  /** Whether a top-up is due: either half at or below half of its size. */
  wantsRefill(now: number): boolean {
    return !this.refilling && now >= this.refillAfter && (this.requests(now) <= this.maxRequests / 2 || this.#spares.length <= this.maxLeases / 2);
  }

  /** How much a top-up asks for. */
  shortfall(now: number): { requests: number; leases: number } {
    return { requests: this.maxRequests - this.requests(now), leases: this.maxLeases - this.#spares.length };
  }

  /** Adds a top-up. Requests counted in an earlier window are gone by the time a later window's arrive. */
  add(reply: GrantReply, now: number): void {
    if (now >= this.#validUntil) this.#requests = 0;
    this.#requests += reply.requests;
    if (reply.requests > 0) this.#validUntil = reply.validUntil;
    this.#spares.push(...reply.leases);
  }

  /** Takes the spare leases out (for the caller to release), keeping the counted requests. */
  takeSpares(): Lease[] {
    return this.#spares.splice(0);
  }

  /** Empties the grant: the spare leases the caller must release (the counted requests are simply not used). */
  drain(): Lease[] {
    this.#requests = 0;
    return this.#spares.splice(0);
  }
}
