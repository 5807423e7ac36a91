// Counts every control-plane response by route template (Express's matched route, never the raw path,
// so ids in paths add no time series), status, and an empty provider (no control-plane route has one).
import type { RequestHandler } from 'express';
import { httpMetrics, type MetricsRegistry } from '@voice-router/service-kit';

/** Requests no route matched (404s, static console assets) share one label value. */
const UNMATCHED = 'unmatched';

export function countRequests(registry: MetricsRegistry): RequestHandler {
  const { requests } = httpMetrics(registry);
  return (request, response, next) => {
    let counted = false;
    const count = (status: number) => {
      if (counted) return;
      counted = true;
      const path = request.route?.path as unknown;
      const route = typeof path === 'string' ? `${request.baseUrl}${path}` : UNMATCHED;
      requests.cell(route, String(status), '').inc();
    };
    response.once('finish', () => count(response.statusCode));
    // 499 (nginx's convention): the client left before the response was complete.
    response.once('close', () => count(499));
    next();
  };
}
