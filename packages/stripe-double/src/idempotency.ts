// Stripe's idempotency layer: the first result for a key is saved (success or error alike) and
// replayed for every retry; the same key with other parameters is a 400 idempotency_error; a retry
// while the first request still runs is a 409. Validation failures save nothing.
import type { FormObject, FormValue } from './form-body.js';
import type { StripeErrorBody } from './stripe-error.js';

interface SavedResult {
  status: number;
  body: object;
  requestId: string;
}

interface Entry {
  fingerprint: string;
  result?: SavedResult;
}

export type IdempotencyCheck =
  | { kind: 'new'; finish(result: SavedResult | undefined): void }
  | { kind: 'replay'; result: SavedResult }
  | { kind: 'refused'; status: 400 | 409; body: { error: StripeErrorBody } };

function canonical(value: FormValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key]!)}`).join(',')}}`;
}

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  check(apiKey: string, key: string, method: string, path: string, params: FormObject): IdempotencyCheck {
    const scoped = `${apiKey}\n${key}`;
    const fingerprint = `${method} ${path} ${canonical(params)}`;
    const entry = this.entries.get(scoped);
    if (entry) {
      if (entry.fingerprint !== fingerprint) {
        return {
          kind: 'refused', status: 400, body: { error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          } },
        };
      }
      if (!entry.result) {
        return {
          kind: 'refused', status: 409, body: { error: {
            type: 'idempotency_error',
            message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
          } },
        };
      }
      return { kind: 'replay', result: entry.result };
    }
    const created: Entry = { fingerprint };
    this.entries.set(scoped, created);
    return {
      kind: 'new',
      finish: (result) => {
        if (result) created.result = result;
        else this.entries.delete(scoped);
      },
    };
  }
}
