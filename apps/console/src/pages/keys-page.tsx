// API keys of the selected account: the one-time secret after creation, the create form with
// optional limits, and the list with "Edit" (creator or owner) and "Revoke" (creator) on its keys.
import type { ConsoleKey } from '../console-services.js';
import { formatMicros } from '../money.js';
import { Layout, type Viewer } from './layout.js';
import { CopyableValue, CsrfField, Field, Notice, formatDate } from './components.js';

export interface KeyFormValues {
  name: string;
  maxConcurrency: string;
  rateLimitPerMinute: string;
  dailySpendCap: string;
  monthlySpendCap: string;
}

export const emptyKeyForm: KeyFormValues = { name: '', maxConcurrency: '', rateLimitPerMinute: '', dailySpendCap: '', monthlySpendCap: '' };

export interface KeysPageProps {
  viewer: Viewer;
  keys: ConsoleKey[];
  created?: { key: ConsoleKey; keyValue: string };
  form?: KeyFormValues;
  error?: string;
  notice?: string;
}

function limits(key: ConsoleKey): string {
  const byDefault = (own: number | null) => (own === null ? ' (default)' : '');
  const parts = [
    `${key.effective.maxConcurrency} concurrent${byDefault(key.maxConcurrency)}`,
    `${key.effective.rateLimitPerMinute}/min${byDefault(key.rateLimitPerMinute)}`,
  ];
  if (key.dailySpendCapMicros !== null) parts.push(`${formatMicros(key.dailySpendCapMicros)}/day`);
  if (key.monthlySpendCapMicros !== null) parts.push(`${formatMicros(key.monthlySpendCapMicros)}/month`);
  return parts.join(' · ');
}

function CreatedKey({ created }: { created: { key: ConsoleKey; keyValue: string } }) {
  return (
    <section class="card" aria-labelledby="created-heading">
      <h2 id="created-heading">Key “{created.key.name}” created</h2>
      <Notice kind="warning">
        Copy this key now. It is shown <strong>only once</strong>: only a hash is stored, so it cannot be shown again.
      </Notice>
      <CopyableValue id="new-key" label="Your new API key" value={created.keyValue} />
    </section>
  );
}

function CreateKeyForm({ viewer, form }: { viewer: Viewer; form: KeyFormValues }) {
  return (
    <section class="card" aria-labelledby="create-heading">
      <h2 id="create-heading">Create a key</h2>
      <form method="post" action="/console/keys">
        <CsrfField token={viewer.csrfToken} />
        <Field id="name" label="Name" value={form.name} required maxLength={100} hint="What uses it, e.g. “podcast-bot”" />
        <div class="grid">
          <Field id="max_concurrency" label="Max concurrency" value={form.maxConcurrency} inputMode="numeric" hint="Optional" />
          <Field id="rate_limit_per_minute" label="Requests per minute" value={form.rateLimitPerMinute} inputMode="numeric" hint="Optional" />
          <Field id="daily_spend_cap" label="Daily spend cap (USD)" value={form.dailySpendCap} inputMode="decimal" hint="Optional, e.g. 5.00" />
          <Field id="monthly_spend_cap" label="Monthly spend cap (USD)" value={form.monthlySpendCap} inputMode="decimal" hint="Optional, e.g. 100" />
        </div>
        <button type="submit">Create key</button>
      </form>
    </section>
  );
}

function KeyList({ viewer, keys }: { viewer: Viewer; keys: ConsoleKey[] }) {
  if (keys.length === 0) return <p class="muted">No keys yet. Create one above to call the API.</p>;
  return (
    <div class="table-scroll">
      <table>
        <thead>
          <tr><th>Name</th><th>Key</th><th>Limits</th><th>Created</th><th>Created by</th><th><span class="muted">Actions</span></th></tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr>
              <td>{key.name}</td>
              <td><code>pk_…{key.keySuffix}</code></td>
              <td class="small">{limits(key)}</td>
              <td class="small nowrap">{formatDate(key.createdAt)}</td>
              <td class="small">{key.createdBy ?? '—'}</td>
              <td>
                {key.editableByMe ? <a class="small" href={`/console/keys/${encodeURIComponent(key.id)}/edit`}>Edit</a> : null}{' '}
                {key.revocableByMe ? (
                  <form method="post" action={`/console/keys/${encodeURIComponent(key.id)}/revoke`} class="inline">
                    <CsrfField token={viewer.csrfToken} />
                    <button type="submit" class="danger small">Revoke</button>
                  </form>
                ) : (
                  <span class="muted small" title="Only the member who created a key or an owner of the organization can revoke it">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function KeysPage(props: KeysPageProps) {
  return (
    <Layout title="API keys" viewer={props.viewer} section="keys">
      <h1>API keys</h1>
      {props.notice ? <Notice kind="success">{props.notice}</Notice> : null}
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      {props.created ? <CreatedKey created={props.created} /> : null}
      <CreateKeyForm viewer={props.viewer} form={props.form ?? emptyKeyForm} />
      <section class="card" aria-labelledby="list-heading">
        <h2 id="list-heading">Keys of {props.viewer.account.name}</h2>
        <KeyList viewer={props.viewer} keys={props.keys} />
      </section>
    </Layout>
  );
}
