// Prepares the data the scenarios need, straight through the ledger's own operations: a pool of funded
// accounts with keys for the load scenarios (one wallet per connection, so they measure the data path
// and not one wallet's row lock, which scenario 5 measures on purpose), and one account's history, consistent with the ledger's invariants: per batch, a top-up row and
// then, per past request, a committed reservation with its reserve row (delta 0) and commit row
// (−cost), every balance-after being the running sum in id order. Spread over the last 30 days.
// Runs as its own process so a long PGlite seed does not stall the benchmark's event loop. Also
// creates a CLI session for the user when the ledger offers sessions (GET /v1/usage needs one).
import { parseArgs } from 'node:util';
import * as ledger from '@voice-router/ledger';

const { values } = parseArgs({
  options: {
    pglite: { type: 'string' }, 'database-url': { type: 'string' }, rows: { type: 'string' },
    'load-accounts': { type: 'string', default: '0' },
  },
});
const COST = 120;
const BATCH_REQUESTS = 100_000;
const requests = Math.floor(Number(values.rows) / 2);

const RESERVATIONS = `
INSERT INTO reservations (id, account_id, amount_micros, state, provider, model, characters, created_at, settled_at)
SELECT md5($1 || ':' || k)::uuid, $1::uuid, ${COST}, 'committed', 'openai', 'tts-1', 8, at, at
FROM generate_series($2::int + 1, $2::int + $3::int) AS k,
     LATERAL (SELECT now() - ($4::int - k) * (interval '30 days' / $4::int) AS at) AS moment`;

const ENTRIES = `
INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, reservation_id, source, metadata, created_at)
SELECT $1::uuid,
       CASE step WHEN 0 THEN 'reserve' ELSE 'commit' END,
       CASE step WHEN 0 THEN 0 ELSE -${COST} END,
       $5::bigint + $3::bigint * ${COST} - (k - $2::int - 1 + step) * ${COST},
       md5($1 || ':' || k)::uuid,
       CASE step WHEN 0 THEN 'request' ELSE 'worker' END,
       CASE step WHEN 0 THEN jsonb_build_object('amountMicros', ${COST}, 'provider', 'openai', 'model', 'tts-1', 'characters', 8)
                 ELSE jsonb_build_object('provider', 'openai', 'model', 'tts-1', 'characters', 8, 'deliveredBytes', 4224) END,
       now() - ($4::int - k) * (interval '30 days' / $4::int)
FROM generate_series($2::int + 1, $2::int + $3::int) AS k, (VALUES (0), (1)) AS steps(step)
ORDER BY k, step`;

const GENEROUS_LIMITS = { maxConcurrency: 10_000, rateLimitPerMinute: 1_000_000 };

const database = values.pglite
  ? await ledger.openDatabase({ kind: 'pglite', dataDir: values.pglite })
  : await ledger.openDatabase({ kind: 'postgres', url: values['database-url']!, poolSize: 1 });
async function fundedAccount(email: string, micros: bigint) {
  const user = await ledger.createUser(database.prisma, { email });
  // Generous limits: the load scenarios measure the cost of checking limits, not of being refused by them.
  const key = await ledger.createApiKey(database.prisma, { accountId: user.personalAccountId, name: 'bench', ...GENEROUS_LIMITS });
  if (micros > 0n) await ledger.grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: micros, source: 'admin', metadata: { by: 'benchmark' } });
  return { email, userId: user.userId, accountId: user.personalAccountId, key: key.keyValue };
}
const stamp = Date.now();
const loadKeys: Array<{ key: string; accountId: string; email: string }> = [];
for (let index = 0; index < Number(values['load-accounts']); index += 1) {
  loadKeys.push(await fundedAccount(`bench-load-${index}-${stamp}@example.com`, 10_000_000_000n));
}
// Scenario 5's wallet: empty until the scenario funds it (admin grant); its key has the same generous
// limits, so 200 clients on one key measure the wallet, not the key's concurrency limit.
const hotWallet = await fundedAccount(`bench-hot-${stamp}@example.com`, 0n);
const activity = await fundedAccount(`bench-activity-${stamp}@example.com`, 10_000_000n);
const accountId = activity.accountId;

const started = performance.now();
let rows = 0;
for (let done = 0; done < requests; done += BATCH_REQUESTS) {
  const batch = Math.min(BATCH_REQUESTS, requests - done);
  await database.sql.transaction(async (client) => {
    const [wallet] = await client.query<{ balance: string }>('SELECT balance_micros::text AS balance FROM wallets WHERE account_id = $1::uuid FOR UPDATE', [accountId]);
    const balance = BigInt(wallet!.balance);
    await client.query(
      `INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, source, metadata, created_at)
       VALUES ($1::uuid, 'top-up', $2::bigint, $3::bigint, 'bench-seed', '{"note":"benchmark seed"}'::jsonb, now() - interval '30 days')`,
      [accountId, BigInt(batch * COST), balance + BigInt(batch * COST)],
    );
    await client.query(RESERVATIONS, [accountId, done, batch, requests]);
    await client.query(ENTRIES, [accountId, done, batch, requests, balance]);
    await client.query('UPDATE wallets SET updated_at = now() WHERE account_id = $1::uuid', [accountId]);
  });
  rows += 1 + batch * 2;
}
await database.sql.query('ANALYZE ledger_entries');
await database.sql.query('ANALYZE reservations');

// Sessions arrived with the accounts work; use them when this build has them.
const createSession = (ledger as Record<string, unknown>).createSession as
  | ((sql: unknown, input: { userId: string; kind: 'cli'; ttlMs: number }) => Promise<{ token: string }>)
  | undefined;
let sessionToken: string | undefined;
if (createSession) {
  sessionToken = (await createSession(database.sql, { userId: activity.userId, kind: 'cli', ttlMs: 3_600_000 })).token;
}
await database.close();
process.stdout.write(`${JSON.stringify({ rows, seconds: (performance.now() - started) / 1000, sessionToken, loadKeys, activity, hotWallet })}\n`);
process.exit(0);
