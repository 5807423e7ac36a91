// Scenario 7: reading a long history. GET /v1/credits/activity?limit=50 (pk_ key) and GET /v1/usage
// (session token, when this build serves it) on an account seeded with about a million ledger rows,
// one request at a time so each sample is the endpoint's own latency.
import { percentiles, round, type Percentiles } from '../report/stats.js';

export interface ActivityRow extends Percentiles {
  mode: string;
  endpoint: string;
  ledgerRows: number;
  errors: number;
  note?: string;
}

async function timeRequests(url: string, token: string, requests: number): Promise<{ samples: number[]; errors: number; status?: number }> {
  const samples: number[] = [];
  let errors = 0;
  let status: number | undefined;
  for (let index = 0; index < requests + 10; index += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    status = response.status;
    if (!response.ok) {
      errors += 1;
      if (index === 0) return { samples, errors, status };
      continue;
    }
    // The first ten warm the connection, caches and plans.
    if (index >= 10) samples.push(elapsed);
  }
  return { samples, errors, status };
}

const stats = (samples: number[]) => {
  const value = percentiles(samples);
  return { n: value.n, p50: round(value.p50, 2), p90: round(value.p90, 2), p99: round(value.p99, 2) };
};

export async function runActivity(
  mode: string, baseUrl: string, credentials: { key: string; sessionToken?: string }, ledgerRows: number, requests: number,
): Promise<ActivityRow[]> {
  const rows: ActivityRow[] = [];
  const activity = await timeRequests(`${baseUrl}/v1/credits/activity?limit=50`, credentials.key, requests);
  rows.push({ mode, endpoint: 'GET /v1/credits/activity?limit=50', ledgerRows, errors: activity.errors, ...stats(activity.samples) });
  const usageUrl = `${baseUrl}/v1/usage`;
  const probe = await fetch(usageUrl, { headers: { authorization: `Bearer ${credentials.sessionToken ?? credentials.key}` } });
  await probe.arrayBuffer();
  let note: string | undefined;
  let usage = { samples: [] as number[], errors: 0 };
  if (probe.status === 404) note = 'endpoint not available';
  else if (!credentials.sessionToken) note = `endpoint answers ${probe.status}, but this build offers no way to create a vr_session_ token`;
  else {
    usage = await timeRequests(usageUrl, credentials.sessionToken, requests);
    if (usage.samples.length === 0) note = `endpoint answered ${probe.status}`;
  }
  rows.push({ mode, endpoint: 'GET /v1/usage', ledgerRows, errors: usage.errors, ...stats(usage.samples), ...(note ? { note } : {}) });
  return rows;
}
