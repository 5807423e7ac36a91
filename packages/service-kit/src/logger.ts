// Structured JSON log lines. Fields whose names look like secrets are redacted before anything is
// written, so an API key or token passed by mistake never reaches a log line.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_FIELD = /(authorization|api[-_]?key|secret|token|password|cookie|key_value|keyvalue)/i;
// Ours (pk_, vr_session_), OpenAI-style (sk-), and Stripe's secret and restricted keys, webhook
// signing secrets and client secrets (pi_…_secret_…).
const SECRET_VALUE = /\b(pk_[A-Za-z0-9_-]{8,}|vr_session_[A-Za-z0-9_-]{8,}|sk-[A-Za-z0-9_-]{8,}|[sr]k_(?:live|test)_[A-Za-z0-9]{8,}|whsec_[A-Za-z0-9+/=_-]{8,}|[a-z]+_[A-Za-z0-9]+_secret_[A-Za-z0-9]{8,})/g;

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(SECRET_VALUE, '[redacted]');
  if (value instanceof Error) return { name: value.name, message: redact(value.message) };
  if (depth > 4 || value === null || typeof value !== 'object') return typeof value === 'bigint' ? value.toString() : value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const output: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) output[key] = SECRET_FIELD.test(key) ? '[redacted]' : redact(item, depth + 1);
  return output;
}

export function createLogger(options: { name: string; level?: LogLevel; write?: (line: string) => void; base?: Record<string, unknown> }): Logger {
  const threshold = LEVELS[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const base = options.base ?? {};
  const log = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (LEVELS[level] < threshold) return;
    const record = { time: new Date().toISOString(), level, app: options.name, message: redact(message), ...(redact({ ...base, ...fields }) as object) };
    write(JSON.stringify(record) + '\n');
  };
  return {
    debug: (message, fields) => log('debug', message, fields),
    info: (message, fields) => log('info', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    error: (message, fields) => log('error', message, fields),
    child: (fields) => createLogger({ ...options, base: { ...base, ...fields } }),
  };
}
