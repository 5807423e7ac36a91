// Structured JSON log lines through pino, one per call, written to stdout in batches (flushed at
// exit). Secrets never reach a line: pino's `redact` paths censor the usual secret fields, and every
// finished line goes through the secret scrubber (shapes like pk_/vr_session_/sk_/whsec_, `Bearer …`,
// `?api_key=`, URL passwords, and the literal secrets this process was configured with).
import { pino, type DestinationStream, type Logger as PinoLogger, type LoggerOptions as PinoOptions } from 'pino';
import { createSecretScrubber, isSecretFieldName, REDACTED, scrubSecrets, type SecretScrubber } from './secret-scrubber.js';
import { StdoutBatches } from './stdout-batches.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
/** `silent` writes nothing at all (request lines included). */
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
  /** Whether lines of this level are written, so a hot path can skip building them. */
  isEnabled(level: Exclude<LogLevel, 'silent'>): boolean;
  /**
   * An info line of flat fields, for the hottest lines (one per request). The same line info() writes,
   * built without pino's generic serializer: a field whose name says secret is censored, and each
   * string value (and the message) goes through the secret scrubber on its own, instead of the whole
   * finished line. Undefined fields are left out; a number that is not finite is written as null.
   */
  infoLine(message: string, fields: LineFields): void;
}

/** What infoLine takes: plain values only, so the line can be written without a serializer. */
export type LineFields = Readonly<Record<string, string | number | boolean | undefined>>;

export interface LoggerOptions {
  /** The `app` field of every line. */
  name: string;
  level?: LogLevel;
  /** A synchronous sink for each line (tests); default: stdout, in batches. */
  write?: (line: string) => void;
  base?: Record<string, unknown>;
  /** Secret values this process holds (provider keys, Stripe keys): redacted wherever they appear. */
  secrets?: ReadonlyArray<string | undefined>;
}

/**
 * Field paths pino censors before serializing (whole values, objects included). Top level and
 * `headers` only: wildcard paths (`*.x`) made every line ~10x dearer, and the scrubber already covers
 * these names at any depth for string values.
 */
const SECRET_FIELDS = [
  'authorization', 'cookie', 'password', 'apiKey', 'api_key', 'keyValue', 'token', 'secret', 'sessionToken',
  'invitationToken', 'webhookSecret', 'stripeSecretKey', 'clientSecret', 'client_secret',
];
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'xi-api-key'];
export const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_HEADERS.map((header) => `headers["${header}"]`),
];

const SECRET_SETTING = /(API_KEY|SECRET|TOKEN|PASSWORD)/;

/**
 * The secret values among an app's parsed settings (OPENAI_API_KEY, STRIPE_WEBHOOK_SECRET, any
 * future *_API_KEY …), for `createLogger({ secrets })`: a provider key of any shape is then redacted.
 */
export function secretSettings(environment: Record<string, unknown>): string[] {
  return Object.entries(environment).flatMap(([name, value]) => (SECRET_SETTING.test(name) && typeof value === 'string' ? [value] : []));
}

/** Errors as type, message, code, stack and cause; never their other properties (they may hold bodies). */
function serializeError(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  const code = (value as { code?: unknown }).code;
  return {
    type: value.name,
    message: value.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    stack: value.stack,
    ...(value.cause !== undefined && depth < 3 ? { cause: serializeError(value.cause, depth + 1) } : {}),
  };
}

// The ISO-8601 time of a line. Date#toISOString cost ~10 µs per request line in a loaded data plane's
// profile; the text up to the seconds changes once a second, so only the milliseconds are formatted.
// Lines of the same millisecond (several, under load) share the last text.
let isoSecond = Number.NaN;
let isoPrefix = '';
let isoMillisecond = Number.NaN;
let isoText = '';
export function isoTimeNow(now = Date.now()): string {
  if (now === isoMillisecond) return isoText;
  isoMillisecond = now;
  const second = Math.floor(now / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  const millis = now - second * 1000;
  isoText = `${isoPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
  return isoText;
}
const timestamp = () => `,"time":"${isoTimeNow()}"`;

/**
 * Lines are written in batches (stdout-batches.ts): at least STDOUT_BATCH_BYTES at a time, and whatever is
 * gathered every STDOUT_FLUSH_MS, so a line waits at most STDOUT_FLUSH_MS. A graceful stop drains them
 * (drainLogs), exit writes out the rest (flushLogs); only a SIGKILL loses the last moment's lines.
 *
 * Batches because each write costs a system call and, in profiles of a loaded data plane, a batch of
 * 4 KB was only 17 request lines. Through process.stdout because on a pipe that write never waits for
 * the reader: a reader more than STDOUT_MAX_QUEUED_BYTES behind costs log lines (counted, and said in
 * the next line written), never a stalled stream.
 */
export const STDOUT_BATCH_BYTES = 12 * 1024;
export const STDOUT_FLUSH_MS = 100;
export const STDOUT_MAX_QUEUED_BYTES = 8 * 1024 * 1024;

// One stdout destination per process, shared by every logger that writes there.
let stdout: StdoutBatches | undefined;
function stdoutDestination(app: string): DestinationStream {
  if (!stdout) {
    // The first logger's name (the process's own: every app creates its logger first) signs the warning line.
    const batches = new StdoutBatches(process.stdout, {
      batchBytes: STDOUT_BATCH_BYTES, flushMs: STDOUT_FLUSH_MS, maxQueuedBytes: STDOUT_MAX_QUEUED_BYTES, fd: 1, now: isoTimeNow, app,
    });
    // A reader that went away (EPIPE) must not crash the process: logging stops, serving goes on.
    process.stdout.on('error', () => batches.markBroken());
    process.once('exit', flushLogs);
    stdout = batches;
  }
  const batches = stdout;
  return { write: (line: string) => batches.write(line) };
}

/** Writes out what the stdout destination still holds, synchronously (exit does it too). */
export function flushLogs(): void {
  try {
    stdout?.flushSync();
  } catch {
    // Already closed: nothing that can still be written.
  }
}

/** Hands every gathered line to stdout and waits (up to `timeoutMs`) until the reader has taken them. */
export async function drainLogs(timeoutMs = 2_000): Promise<void> {
  await stdout?.drain(timeoutMs);
}

/** How infoLine writes: the logger's own sink, its scrubber, and the bindings of the logger (and its parents). */
interface LineWriter {
  write: (line: string) => void;
  scrub: SecretScrubber;
  /** `"app":"…",…` without braces: what pino puts after level and time. */
  bindings: string;
  /** Finished members of short string values, shared by a logger and its children (the same scrubber). */
  members: MemberCache;
}

/**
 * A request line's short string values repeat (the method, the path, the provider): their finished
 * `"name":"value",` text, scrubbed and escaped, is kept and reused. Long values (a request id, 36
 * characters) are not kept, and the cache starts again empty when it has MEMBER_CACHE_SIZE entries, so
 * values a client chooses (paths) cannot make it grow. It holds only text that was scrubbed already.
 */
interface MemberCache {
  byName: Map<string, Map<string, string>>;
  entries: number;
}
const MEMBER_CACHE_SIZE = 1000;
const CACHED_VALUE_LENGTH = 32;

function stringMember(writer: LineWriter, name: string, start: string, value: string): string {
  const cache = writer.members;
  const cacheable = value.length <= CACHED_VALUE_LENGTH;
  let values = cacheable ? cache.byName.get(name) : undefined;
  const cached = values?.get(value);
  if (cached !== undefined) return cached;
  const text = `${start}${JSON.stringify(writer.scrub(value))},`;
  if (cacheable) {
    if (cache.entries >= MEMBER_CACHE_SIZE) {
      cache.byName.clear();
      cache.entries = 0;
      values = undefined;
    }
    if (!values) cache.byName.set(name, (values = new Map()));
    values.set(value, text);
    cache.entries += 1;
  }
  return text;
}

// `"name":` for each field name seen (names come from code, so they are few), or null for a name whose
// value is censored.
const memberStarts = new Map<string, string | null>();
function memberStart(name: string): string | null {
  let start = memberStarts.get(name);
  if (start === undefined) {
    start = isSecretFieldName(name) ? null : `${JSON.stringify(name)}:`;
    if (memberStarts.size < 1000) memberStarts.set(name, start);
  }
  return start;
}

/** A field's `"name":value,` text, or '' when it is left out. */
function member(writer: LineWriter, name: string, value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  const start = memberStart(name);
  if (start === null) return `${JSON.stringify(name)}:"${REDACTED}",`;
  if (typeof value === 'string') return stringMember(writer, name, start, value);
  if (typeof value === 'number') return `${start}${Number.isFinite(value) ? String(value) : 'null'},`;
  return `${start}${value ? 'true' : 'false'},`;
}

function membersOf(writer: LineWriter, fields: Readonly<Record<string, unknown>>): string {
  let text = '';
  for (const name in fields) {
    const value = fields[name];
    if (value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') text += member(writer, name, value);
    else {
      // Anything else as pino writes it (JSON), scrubbed as a whole.
      const start = memberStart(name);
      text += start === null ? `${JSON.stringify(name)}:"${REDACTED}",` : `${start}${writer.scrub(JSON.stringify(value))},`;
    }
  }
  return text;
}

/** The member cache behind each logger, for the logger's own tests. */
const memberCaches = new WeakMap<Logger, MemberCache>();
export function cachedMemberCount(logger: Logger): number | undefined {
  return memberCaches.get(logger)?.entries;
}

function wrap(logger: PinoLogger, writer: LineWriter): Logger {
  const wrapped: Logger = {
    debug: (message, fields) => (fields ? logger.debug(fields, message) : logger.debug(message)),
    info: (message, fields) => (fields ? logger.info(fields, message) : logger.info(message)),
    warn: (message, fields) => (fields ? logger.warn(fields, message) : logger.warn(message)),
    error: (message, fields) => (fields ? logger.error(fields, message) : logger.error(message)),
    child: (fields) => {
      const added = membersOf(writer, fields).slice(0, -1);
      return wrap(logger.child(fields), { ...writer, bindings: added ? `${writer.bindings},${added}` : writer.bindings });
    },
    isEnabled: (level) => logger.isLevelEnabled(level),
    infoLine(message, fields) {
      if (!logger.isLevelEnabled('info')) return;
      let line = `{"level":"info","time":"${isoTimeNow()}",${writer.bindings},`;
      for (const name in fields) line += member(writer, name, fields[name]);
      writer.write(`${line}"msg":${JSON.stringify(writer.scrub(message))}}\n`);
    },
  };
  memberCaches.set(wrapped, writer.members);
  return wrapped;
}

export function createLogger(options: LoggerOptions): Logger {
  const scrub = options.secrets?.length ? createSecretScrubber(options.secrets) : scrubSecrets;
  const settings: PinoOptions = {
    level: options.level ?? 'info',
    base: { app: options.name, ...options.base },
    timestamp,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { error: (value: unknown) => serializeError(value), err: (value: unknown) => serializeError(value) },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    hooks: { streamWrite: scrub },
  };
  const write = options.write;
  const destination: DestinationStream = write ? { write: (line: string) => write(line) } : stdoutDestination(options.name);
  const base = JSON.stringify(settings.base).slice(1, -1);
  return wrap(pino(settings, destination), { write: (line) => destination.write(line), scrub, bindings: scrub(base), members: { byName: new Map(), entries: 0 } });
}
