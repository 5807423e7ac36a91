// Re-renders the report, charts and latest.json from a saved latest.json (same run, same figures),
// for when the report's layout changes: `node bench/dist/render-report.js bench/results/latest.json`.
import fs from 'node:fs';
import { writeResults, type BenchResults } from './report/write-results.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node bench/dist/render-report.js <latest.json>\n');
  process.exit(2);
}
const { targets: _targets, report: _report, ...results } = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchResults & { targets?: unknown; report?: string };
process.stdout.write(`${writeResults(results, { rerender: true }).join('\n')}\n`);
