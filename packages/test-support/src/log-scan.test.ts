import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogs, LOG_DIRECTORY_VARIABLE } from './log-capture.js';
import { scanLogDirectory, scanText } from './log-scan.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});
const folder = () => {
  const created = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-log-scan-'));
  folders.push(created);
  return created;
};

describe('the log scan', () => {
  it('finds each secret kind the tests create, by line, without printing it whole', () => {
    const secrets = [
      `pk_${crypto.randomBytes(32).toString('base64url')}`,
      `vr_session_${crypto.randomBytes(32).toString('base64url')}`,
      `vr_invite_${crypto.randomBytes(24).toString('base64url')}`,
      `vr_device_${crypto.randomBytes(32).toString('base64url')}`,
      'sk_test_0123456789abcdefABCDEFGH',
      `whsec_${crypto.randomBytes(24).toString('base64url')}`,
      `fake-key-${crypto.randomBytes(12).toString('hex')}`,
      'sk-test-openai-0123456789abcdef',
    ];
    const text = ['{"msg":"clean line"}', ...secrets.map((secret) => `{"msg":"leak ${secret}"}`)].join('\n');
    const findings = scanText('app.log', text);
    expect(findings.map((finding) => finding.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    for (const [index, finding] of findings.entries()) expect(secrets[index]!.startsWith(finding.excerpt.slice(0, -1))).toBe(true);
    expect(JSON.stringify(findings)).not.toContain(secrets[0]);
  });

  it('passes redacted and ordinary lines', () => {
    expect(scanText('a.log', '{"msg":"a valid pk_ API key is required","authorization":"[redacted]","requestId":"2b0c3c1e-8d77-4d5e-9d0e-6b7e1b0f3c11"}')).toEqual([]);
  });

  it('reads every file a run captured from its services', async () => {
    const directory = folder();
    const previous = process.env[LOG_DIRECTORY_VARIABLE];
    process.env[LOG_DIRECTORY_VARIABLE] = directory;
    try {
      const child = spawn(process.execPath, ['-e', 'console.log("hello"); console.error("pk_" + "x".repeat(43))'], { stdio: ['ignore', 'pipe', 'pipe'] });
      captureLogs('service one', child);
      await new Promise((resolve) => child.once('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      if (previous === undefined) delete process.env[LOG_DIRECTORY_VARIABLE];
      else process.env[LOG_DIRECTORY_VARIABLE] = previous;
    }
    const { files, findings } = scanLogDirectory(directory);
    expect(files).toBe(1);
    expect(findings).toEqual([expect.objectContaining({ kind: 'pk_ API key', line: 2, file: expect.stringMatching(/^service_one-\d+\.log$/) })]);
  });
});
