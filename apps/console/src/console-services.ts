// What the console needs from the control plane. The control plane implements this interface and
// mounts `createConsoleRouter(services)` under /console; the console never touches the database.

export type Micros = number;

export interface ConsoleUser {
  userId: string;
  email: string;
}

export interface ConsoleSession extends ConsoleUser {
  sessionId: string;
  /** Synchronizer token: every POST form carries it in a hidden `_csrf` field. */
  csrfToken: string;
  expiresAt: Date;
}

export interface ConsoleAccount {
  accountId: string;
  kind: 'personal' | 'organization';
  name: string;
  role: 'owner' | 'member';
}

export interface ConsoleKey {
  id: string;
  name: string;
  keySuffix: string;
  /** The key's own limits; null when the deployment default applies. */
  maxConcurrency: number | null;
  rateLimitPerMinute: number | null;
  /** The limits it is held to: its own, or the deployment defaults (always numbers, as the list shows them). */
  effective: { maxConcurrency: number; rateLimitPerMinute: number };
  dailySpendCapMicros: Micros | null;
  monthlySpendCapMicros: Micros | null;
  createdAt: string;
  /** Email of the member who minted it; only they may revoke it. */
  createdBy: string | null;
  revocableByMe: boolean;
  /** Its creator and the account's owners may change its name and limits. */
  editableByMe: boolean;
}

/** A key's name and limits as the edit form sets them: null = the deployment default / no cap. */
export interface ConsoleKeyChanges {
  name: string;
  maxConcurrency: number | null;
  rateLimitPerMinute: number | null;
  dailySpendCapMicros: Micros | null;
  monthlySpendCapMicros: Micros | null;
}

export interface ConsoleLedgerRow {
  id: string;
  kind: 'top-up' | 'reserve' | 'commit' | 'refund' | 'void';
  microsDelta: Micros;
  microsBalanceAfter: Micros;
  reservationId: string | null;
  source: string;
  metadata: Record<string, unknown>;
  createdAt: string;
}

export interface ConsoleUsage {
  totals: { requests: number; costMicros: Micros; errorCount: number };
  byProvider: Array<{ provider: string; requests: number; costMicros: Micros }>;
  byErrorCode: Array<{ code: string; count: number }>;
  /** Spend per UTC day (YYYY-MM-DD) and provider, oldest first; days with no rows are absent. */
  byDay: Array<{ day: string; provider: string; costMicros: Micros; requests: number }>;
  recent: Array<{ id: string; createdAt: string; status: 'committed' | 'voided'; costMicros: Micros }>;
}

export interface ConsoleMember {
  userId: string;
  email: string;
  role: 'owner' | 'member';
}

export interface ConsoleInvitation {
  id: string;
  email: string;
  /** Absolute URL of /console/invitations/<token>; shown to the inviter (no mail server needed). */
  link: string;
  createdAt: string;
  acceptedAt: string | null;
}

export interface ConsoleSessionSummary {
  sessionId: string;
  kind: 'console' | 'cli';
  createdAt: Date;
  expiresAt: Date;
  /** The session this page was requested with. */
  current: boolean;
}

export type Failure<Reason extends string> = { ok: false; reason: Reason; message: string };

export interface ConsoleBillingMethod {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface ConsoleTopUp {
  paymentIntentId: string;
  amountCents: number;
  /** completed = the wallet was credited; pending = charged, waiting for the processor's confirmation. */
  status: 'completed' | 'pending' | 'needs_authentication' | 'failed' | 'canceled';
  failureCode: string | null;
  createdAt: string;
}

export interface ConsolePendingPayment {
  paymentIntentId: string;
  accountId: string;
  amountCents: number;
  status: 'succeeded' | 'processing' | 'needs_authentication' | 'canceled';
  /** e.g. "visa ending 3155". */
  card: string | null;
}

/**
 * Card billing (present only when the deployment has a payment processor). Card data never reaches
 * the console: cards are added and payments confirmed on the processor's own hosted pages.
 */
export interface ConsoleBilling {
  /** Origins of the processor's hosted pages: forms that lead there need them in the CSP's form-action. */
  hostedOrigins: string[];
  overview(input: { userId: string; accountId: string }):
    Promise<{ methods: ConsoleBillingMethod[]; topUps: ConsoleTopUp[] } | Failure<'forbidden' | 'unavailable'>>;
  /** Starts the hosted add-card flow; it comes back to `returnUrl?session_id=…`, or to `cancelUrl`. */
  startCardSetup(input: { userId: string; accountId: string; returnUrl: string; cancelUrl: string }):
    Promise<{ ok: true; url: string } | Failure<'forbidden' | 'unavailable'>>;
  cardSetupResult(input: { userId: string; accountId: string; sessionId: string }):
    Promise<{ ok: true; status: 'added' | 'open' | 'expired' } | Failure<'forbidden' | 'not_found' | 'unavailable'>>;
  topUp(input: { userId: string; accountId: string; amountCents: number; paymentMethodId: string; idempotencyKey: string }):
    Promise<
      | { ok: true; paymentIntentId: string }
      | { ok: false; reason: 'authentication_required'; paymentIntentId: string; message: string }
      | Failure<'forbidden' | 'declined' | 'invalid' | 'in_progress' | 'unavailable'>
    >;
  /** The payment behind a 3-D Secure link, if the user is a member of its account. */
  pendingPayment(input: { userId: string; paymentIntentId: string }): Promise<{ ok: true; payment: ConsolePendingPayment } | Failure<'not_found' | 'unavailable'>>;
  /** Confirms on-session; the bank's challenge page is `redirectUrl`, and it comes back to `returnUrl`. */
  startAuthentication(input: { userId: string; paymentIntentId: string; returnUrl: string }):
    Promise<{ ok: true; redirectUrl: string } | { ok: true; status: 'succeeded' | 'processing' } | Failure<'not_found' | 'declined' | 'unavailable'>>;
  finishAuthentication(input: { userId: string; paymentIntentId: string }):
    Promise<{ ok: true; status: 'succeeded' | 'processing' | 'requires_action' } | Failure<'not_found' | 'failed' | 'unavailable'>>;
}

export interface ConsoleServices {
  /** Present when this console can reach a data plane (the Voices page). */
  catalog?: ConsoleCatalog;
  /** False when the operator closed sign-up (invitation only): sign-up then needs a valid invitation token. */
  signupOpen(): boolean;
  signUp(input: { email: string; password: string; invitationToken?: string; ip: string }):
    Promise<{ ok: true; user: ConsoleUser } | Failure<'invalid_email' | 'weak_password' | 'email_taken' | 'signup_closed' | 'rate_limited'>>;
  logIn(input: { email: string; password: string; ip: string }):
    Promise<{ ok: true; user: ConsoleUser } | Failure<'invalid_credentials' | 'rate_limited'>>;
  /** A console session; its token goes into an httpOnly cookie. */
  createSession(userId: string): Promise<{ token: string; session: ConsoleSession }>;
  findSession(token: string): Promise<ConsoleSession | undefined>;
  endSession(token: string): Promise<void>;

  /** Device approval page. Wrong codes count against the user (guessing limit). */
  lookUpDeviceCode(input: { userCode: string; userId: string; ip: string }):
    Promise<{ ok: true; userCode: string; expiresAt: Date } | Failure<'not_found' | 'expired' | 'already_decided' | 'rate_limited'>>;
  /** Approval step: limited like the look-up (wrong codes count against the same per-user budget). */
  decideDeviceCode(input: { userCode: string; userId: string; decision: 'approve' | 'deny' }):
    Promise<{ ok: true } | Failure<'not_found' | 'expired' | 'already_decided' | 'rate_limited'>>;

  /** The user's active sessions (console and CLI), newest first; never their tokens. */
  listSessions(input: { userId: string; currentSessionId: string }): Promise<ConsoleSessionSummary[]>;
  /** Revokes one of the user's own sessions. */
  revokeSession(input: { userId: string; sessionId: string }): Promise<{ ok: true } | Failure<'not_found'>>;
  /** "Log out everywhere": every session of the user, the current one included. */
  revokeAllSessions(input: { userId: string }): Promise<{ revokedCount: number }>;
  /** Needs the current password (wrong ones count as failed log-ins); on success every other session ends. */
  changePassword(input: { userId: string; sessionId: string; currentPassword: string; newPassword: string; ip: string }):
    Promise<{ ok: true; revokedCount: number } | Failure<'invalid_credentials' | 'weak_password' | 'rate_limited'>>;

  /** The accounts the user can act for: the personal one first, then organizations. */
  listAccounts(userId: string): Promise<ConsoleAccount[]>;
  /** Every call below checks that userId is a member of accountId and fails with 'forbidden' otherwise. */
  listKeys(input: { userId: string; accountId: string }): Promise<ConsoleKey[] | Failure<'forbidden'>>;
  createKey(input: {
    userId: string; accountId: string; name: string; maxConcurrency?: number; rateLimitPerMinute?: number;
    dailySpendCapMicros?: Micros; monthlySpendCapMicros?: Micros;
  }): Promise<{ ok: true; key: ConsoleKey; keyValue: string } | Failure<'forbidden' | 'invalid'>>;
  /** The key's minter or an owner of its account may revoke it; other members get 'forbidden'. */
  revokeKey(input: { userId: string; accountId: string; keyId: string }): Promise<{ ok: true } | Failure<'not_found' | 'forbidden'>>;
  /** Only the key's creator or an owner of its account; anyone else gets 'not_found'. */
  updateKey(input: { userId: string; accountId: string; keyId: string; changes: ConsoleKeyChanges }):
    Promise<{ ok: true; key: ConsoleKey } | Failure<'not_found' | 'invalid'>>;
  wallet(input: { userId: string; accountId: string }):
    Promise<{ balanceMicros: Micros; reservedMicros: Micros; activity: ConsoleLedgerRow[] } | Failure<'forbidden'>>;
  usage(input: { userId: string; accountId: string; days: number; limit: number }): Promise<ConsoleUsage | Failure<'forbidden'>>;

  createOrganization(input: { userId: string; name: string }): Promise<{ ok: true; account: ConsoleAccount } | Failure<'invalid'>>;
  listMembers(input: { userId: string; accountId: string }): Promise<ConsoleMember[] | Failure<'forbidden'>>;
  listInvitations(input: { userId: string; accountId: string; baseUrl: string }): Promise<ConsoleInvitation[] | Failure<'forbidden'>>;
  /**
   * Owners only. With invitation-only sign-up, people without a user can be invited only into
   * organizations an operator created ('signup_closed' otherwise).
   */
  invite(input: { userId: string; accountId: string; email: string; baseUrl: string }):
    Promise<{ ok: true; invitation: ConsoleInvitation } | Failure<'forbidden' | 'invalid_email' | 'signup_closed'>>;
  /** Owners only; owners cannot be removed. The member's keys for this organization are revoked too. */
  removeMember(input: { userId: string; accountId: string; memberUserId: string }):
    Promise<{ ok: true } | Failure<'forbidden' | 'not_found' | 'owner'>>;
  /** Accepting needs a logged-in user whose email matches the invitation. */
  acceptInvitation(input: { userId: string; token: string }):
    Promise<{ ok: true; account: ConsoleAccount } | Failure<'not_found' | 'wrong_user' | 'already_accepted'>>;

  /** Absent when the deployment takes no card payments: the console then shows no Billing page. */
  billing?: ConsoleBilling;
}

/** A model as the catalog lists it (the data plane's /v1/providers). */
export interface ConsoleCatalogModel {
  id: string;
  name: string;
  responseFormats: Array<'mp3' | 'pcm'>;
  /** cost = ceil(code points × microsPerUnit) micro-dollars. */
  microsPerCharacter: number;
  maxInputCharacters: number;
}

export interface ConsoleCatalogProvider {
  id: string;
  name: string;
  /** Has credentials on this deployment (the data plane's /v1/status is not `missing_api_key`). */
  configured: boolean;
  models: ConsoleCatalogModel[];
}

export interface ConsoleCatalogVoice {
  id: string;
  provider: string;
  name: string;
  language: string;
  labels: Record<string, string>;
  previewUrl?: string;
  modelCompatibility: string[];
}

export interface ConsoleVoiceFilter {
  provider?: string;
  language?: string;
  gender?: string;
}

export interface ConsoleSample {
  audio: Buffer;
  contentType: string;
  format: 'mp3' | 'pcm';
  costMicros: number;
}

/**
 * The voice catalog and sample synthesis, served by a data plane. Catalog reads carry the visitor's own console
 * session; a sample is paid from the selected account's wallet through a short-lived key made for it alone.
 */
export interface ConsoleCatalog {
  providers(input: { sessionToken: string }): Promise<ConsoleCatalogProvider[] | Failure<'unavailable'>>;
  voices(input: { sessionToken: string; filter: ConsoleVoiceFilter }): Promise<ConsoleCatalogVoice[] | Failure<'unavailable'>>;
  synthesizeSample(input: {
    userId: string; accountId: string; model: string; voice: string; format: 'mp3' | 'pcm'; text: string;
  }): Promise<({ ok: true } & ConsoleSample) | Failure<'forbidden' | 'unavailable' | 'invalid' | 'insufficient_credit' | 'upstream'>>;
}
