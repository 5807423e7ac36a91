// Structured JSON log lines through pino, one per call, written asynchronously to stdout (flushed at
// exit). Secrets never reach a line: pino's `redact` paths censor the usual secret fields, and every
// finished line goes through the secret scrubber (shapes like pk_/vr_session_/sk_/whsec_, `Bearer …`,
// `?api_key=`, URL passwords, and the literal secrets this process was configured with).
import { pino, type DestinationStream, type Logger as PinoLogger, type LoggerOptions as PinoOptions } from 'pino';
import { createSecretScrubber, scrubSecrets } from './secret-scrubber.js';

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
}

export interface LoggerOptions {
  /** The `app` field of every line. */
  name: string;
  level?: LogLevel;
  /** A synchronous sink for each line (tests); default: asynchronous stdout. */
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

/**
 * Lines are written in batches: at least STDOUT_BATCH_BYTES at a time, and whatever is buffered every
 * STDOUT_FLUSH_MS. An asynchronous write goes through libuv's thread pool, and one write per line (pino's
 * default) cost ~53 µs of CPU per request line at a real request pace, against ~19 µs batched (measured
 * over 3,000 lines ~0.5 ms apart: 88, 54 and 35 µs per iteration with logging off), most of what
 * logging cost a request. A line waits at most
 * STDOUT_FLUSH_MS; exit writes out the rest (pino flushes on exit, flushLogs() on shutdown); only a
 * SIGKILL can lose the last moment's lines.
 */
export const STDOUT_BATCH_BYTES = 4096;
export const STDOUT_FLUSH_MS = 100;

// One asynchronous stdout destination per process, shared by every logger that writes there.
let stdout: ReturnType<typeof pino.destination> | undefined;
function stdoutDestination(): ReturnType<typeof pino.destination> {
  stdout ??= pino.destination({ dest: 1, sync: false, minLength: STDOUT_BATCH_BYTES, periodicFlush: STDOUT_FLUSH_MS });
  return stdout;
}

/** Writes out what the asynchronous stdout destination still holds (shutdown; exit does it too). */
export function flushLogs(): void {
  try {
    stdout?.flushSync();
  } catch {
    // Not open yet, or already closed: nothing that can still be written.
  }
}

function wrap(logger: PinoLogger): Logger {
  return {
    debug: (message, fields) => (fields ? logger.debug(fields, message) : logger.debug(message)),
    info: (message, fields) => (fields ? logger.info(fields, message) : logger.info(message)),
    warn: (message, fields) => (fields ? logger.warn(fields, message) : logger.warn(message)),
    error: (message, fields) => (fields ? logger.error(fields, message) : logger.error(message)),
    child: (fields) => wrap(logger.child(fields)),
    isEnabled: (level) => logger.isLevelEnabled(level),
  };
}

export function createLogger(options: LoggerOptions): Logger {
  const scrub = options.secrets?.length ? createSecretScrubber(options.secrets) : scrubSecrets;
  const settings: PinoOptions = {
    level: options.level ?? 'info',
    base: { app: options.name, ...options.base },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { error: (value: unknown) => serializeError(value), err: (value: unknown) => serializeError(value) },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    hooks: { streamWrite: scrub },
  };
  const write = options.write;
  const destination: DestinationStream = write ? { write: (line: string) => write(line) } : stdoutDestination();
  return wrap(pino(settings, destination));
}
