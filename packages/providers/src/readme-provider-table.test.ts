// The README's provider table is the operator's reference: one row per listed provider with its models,
// formats, every setting it reads, the mp3 it asks upstream for, and what it approximates.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { providerModules } from './provider-list.js';
import { createProviderRegistry } from './registry.js';

const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');

/** Rows of the first table after `### Providers`, keyed by the id in their first cell. */
function providerRows(): Map<string, string[]> {
  const section = readme.slice(readme.indexOf('\n### Providers\n'));
  const lines = section.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| id |'));
  const header = lines[start]!.split('|').slice(1, -1).map((cell) => cell.trim());
  expect(header).toEqual(['id', 'Models', 'Formats', 'Settings', 'mp3 asked upstream', '`provider_options`', 'Approximated / mapped']);
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split(' | ').map((cell) => cell.replace(/^\|\s*|\s*\|$/g, '').trim());
    rows.set(cells[0]!.replace(/`/g, ''), cells);
  }
  return rows;
}

/** Dated snapshots (`gpt-4o-mini-tts-2025-12-15`, `sonic-3-2026-01-12`) are summed up as "(+ dated)". */
const isDatedSnapshot = (modelId: string) => /\d{4}-\d{2}-\d{2}$/.test(modelId);

describe('README provider table', () => {
  const rows = providerRows();
  const registry = createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1 });
  afterAll(() => registry.close());

  it('has one row per listed provider (and the settings-only OpenAI-compatible hosts)', () => {
    const expected = [...providerModules.map((module) => module.id), '<name> (any OpenAI-compatible host)'];
    expect([...rows.keys()].sort()).toEqual(expected.sort());
  });

  it.each(providerModules.map((module) => [module.id, module] as const))('%s: models, formats, every setting, mp3 quality, approximations', (id, module) => {
    const [, models, formats, settings, mp3, , approximated] = rows.get(id)!;
    for (const model of registry.descriptor(id)!.models) {
      if (!isDatedSnapshot(model.id)) expect(models, `model ${model.id}`).toContain(`\`${model.id}\``);
    }
    expect(formats).toBe('mp3, pcm');
    for (const setting of Object.values(module.settings)) expect(settings, `setting ${setting.env}`).toContain(`\`${setting.env}\``);
    expect(mp3!.length).toBeGreaterThan(0);
    expect(approximated!.length).toBeGreaterThan(0);
  });
});
