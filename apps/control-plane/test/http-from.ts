// A control plane listening on loopback for tests, and requests from a chosen loopback address.
import http from 'node:http';
import type { Express } from 'express';
import { listen } from '../src/listen.js';

export async function serve(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = await listen(app, '127.0.0.1', 0);
  return { url: `http://127.0.0.1:${server.port}`, close: () => server.close() };
}

export function postFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers, localAddress, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({
        status: response.statusCode ?? 0,
        body: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
        retryAfter: response.headers['retry-after'] as string | undefined,
      }));
    });
    request.on('error', reject);
    request.end();
  });
}
