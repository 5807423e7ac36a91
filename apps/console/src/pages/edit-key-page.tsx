// Edit one key's name and limits. Empty limit fields mean "the deployment default" (concurrency, rate)
// or "no cap" (spend); the data plane applies the change within half a second on every replica.
import type { ConsoleKey } from '../console-services.js';
import { microsToUsdInput } from '../money.js';
import { Layout, type Viewer } from './layout.js';
import { CsrfField, Field, Notice } from './components.js';
import type { KeyFormValues } from './keys-page.js';

export function keyFormValues(key: ConsoleKey): KeyFormValues {
  const text = (value: number | null) => (value === null ? '' : String(value));
  const usd = (value: number | null) => (value === null ? '' : microsToUsdInput(value));
  return {
    name: key.name,
    maxConcurrency: text(key.maxConcurrency),
    rateLimitPerMinute: text(key.rateLimitPerMinute),
    dailySpendCap: usd(key.dailySpendCapMicros),
    monthlySpendCap: usd(key.monthlySpendCapMicros),
  };
}

export function EditKeyPage(props: { viewer: Viewer; key_: ConsoleKey; form: KeyFormValues; error?: string }) {
  const { key_: key, form } = props;
  return (
    <Layout title={`Edit key ${key.name}`} viewer={props.viewer} section="keys">
      <h1>Edit key “{key.name}”</h1>
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      <section class="card" aria-labelledby="edit-heading">
        <h2 id="edit-heading"><code>pk_…{key.keySuffix}</code></h2>
        <form method="post" action={`/console/keys/${encodeURIComponent(key.id)}/edit`}>
          <CsrfField token={props.viewer.csrfToken} />
          <Field id="name" label="Name" value={form.name} required maxLength={100} />
          <div class="grid">
            <Field id="max_concurrency" label="Max concurrency" value={form.maxConcurrency} inputMode="numeric" hint="Empty: the deployment default" />
            <Field id="rate_limit_per_minute" label="Requests per minute" value={form.rateLimitPerMinute} inputMode="numeric" hint="Empty: the deployment default" />
            <Field id="daily_spend_cap" label="Daily spend cap (USD)" value={form.dailySpendCap} inputMode="decimal" hint="Empty: no cap. UTC day" />
            <Field id="monthly_spend_cap" label="Monthly spend cap (USD)" value={form.monthlySpendCap} inputMode="decimal" hint="Empty: no cap. UTC month" />
          </div>
          <button type="submit">Save changes</button> <a href="/console/keys">Cancel</a>
        </form>
      </section>
    </Layout>
  );
}
