// Counts per route and status, printed as a table at the end of a run.
import type { FuzzRequest, FuzzResponse } from './http-client.js';

export class RunStatistics {
  private readonly routes = new Map<string, Map<string, number>>();
  inputs = 0;

  record(request: FuzzRequest, response: FuzzResponse): void {
    this.inputs += 1;
    const outcome = response.kind === 'answered' ? String(response.status) : response.kind === 'closed' && response.error.startsWith('client refused') ? 'not sent' : response.kind;
    const statuses = this.routes.get(request.route) ?? new Map<string, number>();
    statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
    this.routes.set(request.route, statuses);
  }

  render(): string {
    const rows = [...this.routes].sort(([a], [b]) => a.localeCompare(b)).map(([route, statuses]) => {
      const total = [...statuses.values()].reduce((sum, count) => sum + count, 0);
      const detail = [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([status, count]) => `${status}×${count}`).join(' ');
      return `  ${route.padEnd(28)} ${String(total).padStart(6)}  ${detail}`;
    });
    return [`  ${'route'.padEnd(28)} ${'inputs'.padStart(6)}  statuses`, ...rows].join('\n');
  }
}
