import fs from 'node:fs';
import crypto from 'node:crypto';
import pg from 'pg';
import { openDatabase, createUser, grantCredit } from './dist/index.js';
const url = 'postgresql://postgres@127.0.0.1:5432/vr_explain';
const admin = new pg.Client('postgresql://postgres@127.0.0.1:5432/postgres'); await admin.connect();
await admin.query('DROP DATABASE IF EXISTS vr_explain WITH (FORCE)'); await admin.query('CREATE DATABASE vr_explain'); await admin.end();
const db = await openDatabase({ kind: 'postgres', url });
const accounts = [];
for (let i = 0; i < 4; i++) { const u = await createUser(db.prisma, { email: crypto.randomUUID() + '@x.io' }); await grantCredit(db.sql, { accountId: u.personalAccountId, amountMicros: 10n ** 12n, source: 'admin' }); accounts.push(u.personalAccountId); }
const c = new pg.Client(url); await c.connect();
// allowances
const allowance = crypto.randomUUID();
await c.query(`INSERT INTO reservations (id, account_id, amount_micros, provider, model, characters, state, kind) VALUES ($1, $2, 1000000000, 'allowance', 'allowance', 0, 'pending', 'allowance')`, [allowance, accounts[0]]).catch(e => console.log('ins allowance', e.message));
if (process.env.EARLY_ANALYZE) await c.query('ANALYZE');
await c.query(`INSERT INTO reservations (id, account_id, amount_micros, provider, model, characters, state, kind, allowance_id, settled_at)
  SELECT gen_random_uuid(), $1, 100, 'openai', 'tts-1', 7, 'committed', 'request', $2, now() FROM generate_series(1, ${process.env.ROWS || 30000})`, [accounts[0], allowance]);
if (process.env.LATE_ANALYZE) await c.query('ANALYZE');
const src = fs.readFileSync('./dist/operations/allowances.js', 'utf8');
const sqlOf = (name, text = src) => new RegExp('const ' + name + ' = `([\\s\\S]*?)`;').exec(text)[1];
const payload = JSON.stringify(Array.from({ length: 20 }, (_, position) => ({ id: crypto.randomUUID(), allowance_id: allowance, account_id: accounts[0], api_key_id: null, amount: '100', provider: 'openai', model: 'tts-1', characters: 7, action: 'commit', error_code: null, source: 'worker', metadata: {}, position })));
const commitSrc = fs.readFileSync('./dist/operations/commit-reservations.js', 'utf8');
const pending = (await c.query(`INSERT INTO reservations (id, account_id, amount_micros, provider, model, characters) SELECT gen_random_uuid(), $1, 100, 'openai', 'tts-1', 7 FROM generate_series(1, 20) RETURNING id`, [accounts[1]])).rows.map(r => r.id);
const commitPayload = JSON.stringify(pending.map((id, position) => ({ id, source: 'worker', metadata: {}, position })));
for (const [name, text, params] of [['SETTLE_SPENDS', sqlOf('SETTLE_SPENDS'), [payload]], ['COMMIT_MANY', sqlOf('COMMIT_MANY', commitSrc), [commitPayload]]]) {
  const plan = await c.query('EXPLAIN (SUMMARY ON) ' + text, params);
  for (let i = 0; i < 3; i++) { const p2 = await c.query('EXPLAIN (SUMMARY ON) ' + text, params); console.log(name, p2.rows.map(r => r['QUERY PLAN']).filter(l => /Planning Time/.test(l)).join(' ')); }
  const lines = plan.rows.map(r => r['QUERY PLAN']);
  const seq = lines.filter(l => /Seq Scan on (reservations|ledger_entries)/.test(l));
  console.log(name, seq.length ? 'SEQ SCANS: ' + seq.map(l => l.trim()).join(' | ') : 'no seq scan on big tables');
  if (process.env.FULL) console.log(lines.join('\n'));
}
console.log(await c.query(`select relname, reltuples, relpages from pg_class where relname in ('reservations','wallets','ledger_entries')`).then(r => r.rows));
await c.end(); await db.close();
