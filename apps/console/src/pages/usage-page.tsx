// Usage of the selected account: the period selector, totals, the spend chart, and the tables by
// provider, by error code and the most recent requests.
import type { ConsoleUsage } from '../console-services.js';
import { formatMicros } from '../money.js';
import { Layout, type Viewer } from './layout.js';
import { Notice, formatDate } from './components.js';
import { UsageChart, colourOf } from './usage-chart.js';

export const usagePeriods = [1, 7, 30, 90] as const;

export interface UsagePageProps {
  viewer: Viewer;
  days: number;
  usage?: ConsoleUsage;
  error?: string;
  now: Date;
}

function providerOrder(usage: ConsoleUsage): string[] {
  const names = usage.byProvider.slice().sort((a, b) => b.costMicros - a.costMicros).map((row) => row.provider);
  for (const row of usage.byDay) if (!names.includes(row.provider)) names.push(row.provider);
  return names;
}

function Totals({ usage }: { usage: ConsoleUsage }) {
  return (
    <div class="stats">
      <div class="stat"><div class="label">Spend</div><div class="value">{formatMicros(usage.totals.costMicros)}</div></div>
      <div class="stat"><div class="label">Requests</div><div class="value">{usage.totals.requests.toLocaleString('en-US')}</div></div>
      <div class="stat"><div class="label">Errors</div><div class="value">{usage.totals.errorCount.toLocaleString('en-US')}</div></div>
    </div>
  );
}

function Tables({ usage, providers }: { usage: ConsoleUsage; providers: string[] }) {
  const byProvider = usage.byProvider.slice().sort((a, b) => providers.indexOf(a.provider) - providers.indexOf(b.provider));
  return (
    <div class="two-col">
      <section class="card" aria-labelledby="providers-heading">
        <h2 id="providers-heading">By provider</h2>
        {byProvider.length === 0 ? <p class="muted">No requests in this period.</p> : (
          <table>
            <thead><tr><th>Provider</th><th class="number">Requests</th><th class="number">Spend</th></tr></thead>
            <tbody>
              {byProvider.map((row) => (
                <tr>
                  <td>
                    <svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" rx="2" fill={colourOf(providers.indexOf(row.provider))} /></svg>{' '}
                    {row.provider}
                  </td>
                  <td class="number">{row.requests.toLocaleString('en-US')}</td>
                  <td class="number">{formatMicros(row.costMicros)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section class="card" aria-labelledby="errors-heading">
        <h2 id="errors-heading">By error code</h2>
        {usage.byErrorCode.length === 0 ? <p class="muted">No errors in this period.</p> : (
          <table>
            <thead><tr><th>Error code</th><th class="number">Count</th></tr></thead>
            <tbody>
              {usage.byErrorCode.map((row) => (
                <tr><td><code>{row.code}</code></td><td class="number">{row.count.toLocaleString('en-US')}</td></tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

function Recent({ usage }: { usage: ConsoleUsage }) {
  if (usage.recent.length === 0) return null;
  return (
    <section class="card" aria-labelledby="recent-heading">
      <h2 id="recent-heading">Recent requests</h2>
      <div class="table-scroll">
        <table>
          <thead><tr><th>Time</th><th>Request</th><th>Status</th><th class="number">Cost</th></tr></thead>
          <tbody>
            {usage.recent.map((row) => (
              <tr>
                <td class="small nowrap">{formatDate(row.createdAt)}</td>
                <td class="small"><code>{row.id}</code></td>
                <td>{row.status === 'committed' ? 'Charged' : 'Not charged'}</td>
                <td class="number">{formatMicros(row.costMicros)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function UsagePage(props: UsagePageProps) {
  const { usage } = props;
  const providers = usage ? providerOrder(usage) : [];
  return (
    <Layout title="Usage" viewer={props.viewer} section="usage">
      <h1>Usage of {props.viewer.account.name}</h1>
      <nav class="segmented" aria-label="Period">
        {usagePeriods.map((days) => (
          <a href={`/console/usage?days=${days}`} aria-current={days === props.days ? 'page' : undefined}>
            {days === 1 ? 'Today' : `${days} days`}
          </a>
        ))}
      </nav>
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      {usage ? (
        <>
          <Totals usage={usage} />
          <section class="card" aria-labelledby="chart-heading">
            <h2 id="chart-heading">Spend per day</h2>
            <UsageChart usage={usage} days={props.days} providers={providers} now={props.now} />
          </section>
          <Tables usage={usage} providers={providers} />
          <Recent usage={usage} />
        </>
      ) : null}
    </Layout>
  );
}
