// The secret scan over a test run's logs: every file in the folder is read and each line is checked
// for the shapes of the real secrets the tests create (pk_ keys, session, invitation and device tokens,
// the Stripe double's keys and webhook secrets, the provider fakes' keys). A finding names the file,
// the line and the kind, and shows only the secret's first characters.
import fs from 'node:fs';
import path from 'node:path';

export const SECRET_PATTERNS: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  { kind: 'pk_ API key', pattern: /\bpk_[A-Za-z0-9_-]{40,}/ },
  { kind: 'vr_session_ token', pattern: /\bvr_session_[A-Za-z0-9_-]{40,}/ },
  { kind: 'vr_invite_ invitation token', pattern: /\bvr_invite_[A-Za-z0-9_-]{30,}/ },
  { kind: 'vr_device_ device code', pattern: /\bvr_device_[A-Za-z0-9_-]{40,}/ },
  { kind: 'Stripe secret key', pattern: /\b[sr]k_(?:test|live)_[A-Za-z0-9]{16,}/ },
  { kind: 'Stripe webhook secret', pattern: /\bwhsec_[A-Za-z0-9_+/=-]{24,}/ },
  { kind: 'provider fake key', pattern: /\bfake-key-[0-9a-f]{24}\b/ },
  { kind: 'provider key (sk-)', pattern: /\bsk-(?:test-openai|cli-e2e|proj)[A-Za-z0-9_-]*/ },
  { kind: 'bearer credential', pattern: /\bBearer (?:pk_|vr_|sk)[A-Za-z0-9_-]{8,}/ },
];

export interface LogFinding {
  file: string;
  line: number;
  kind: string;
  /** The secret's first 12 characters and an ellipsis: enough to find it, not enough to use it. */
  excerpt: string;
}

export function scanText(file: string, text: string): LogFinding[] {
  const findings: LogFinding[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    for (const { kind, pattern } of SECRET_PATTERNS) {
      const match = pattern.exec(lines[index]!);
      if (match) findings.push({ file, line: index + 1, kind, excerpt: `${match[0].slice(0, 12)}…` });
    }
  }
  return findings;
}

/** Scans every file under `directory` (recursively). Returns what it found and how many files it read. */
export function scanLogDirectory(directory: string): { files: number; findings: LogFinding[] } {
  const findings: LogFinding[] = [];
  let files = 0;
  if (!fs.existsSync(directory)) return { files, findings };
  for (const entry of fs.readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files += 1;
    findings.push(...scanText(path.relative(directory, file), fs.readFileSync(file, 'utf8')));
  }
  return { files, findings };
}
