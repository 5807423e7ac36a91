// The running embedded service's operator endpoint: loopback only, bearer token, one route.
// PGlite allows one process per data dir, so while the service runs the CLI reaches the data here.
// The token and port are written to <DATA_DIR>/admin.json with mode 0600.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Database } from '@voice-router/ledger';
import { AdminCommandError, AdminCommandSchema, runAdminCommand, type AdminServices } from './commands.js';

export interface AdminEndpointFile {
  url: string;
  token: string;
  pid: number;
}

export function adminFilePath(dataDir: string): string {
  return path.join(dataDir, 'admin.json');
}

function reply(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function authorised(header: string | undefined, token: string): boolean {
  const presented = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '');
  const expected = Buffer.from(token);
  return presented.length === expected.length && crypto.timingSafeEqual(presented, expected);
}

export async function startAdminEndpoint(options: { database: Database; dataDir: string } & AdminServices): Promise<{ close(): Promise<void> }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const server = http.createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== '/admin/commands') return reply(response, 404, { error: 'not_found' });
    if (!authorised(request.headers.authorization, token)) return reply(response, 401, { error: 'unauthorized' });
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 65_536) request.destroy();
      else chunks.push(chunk);
    });
    request.on('end', async () => {
      try {
        const parsed = AdminCommandSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        if (!parsed.success) return reply(response, 400, { error: 'invalid_body', details: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') });
        reply(response, 200, await runAdminCommand(options.database, parsed.data, { smokeTest: options.smokeTest }));
      } catch (error) {
        const known = error instanceof AdminCommandError || (error as Error).name.endsWith('Error');
        reply(response, known ? 400 : 500, { error: known ? 'command_failed' : 'internal_error', details: (error as Error).message });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const file: AdminEndpointFile = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token, pid: process.pid };
  const filePath = adminFilePath(options.dataDir);
  fs.mkdirSync(options.dataDir, { recursive: true });
  fs.writeFileSync(filePath, JSON.stringify(file), { mode: 0o600 });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        fs.rmSync(filePath, { force: true });
        server.close(() => resolve());
      }),
  };
}
