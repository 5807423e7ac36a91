// Parses YAML the strict way: a duplicate key or a syntax error is a finding, not a silent overwrite.
import { parseAllDocuments } from 'yaml';
import { finding, type Finding } from './findings.js';

export interface ParsedYaml {
  documents: unknown[];
  findings: Finding[];
}

/** `merge` allows compose's `<<: *anchor` merge keys. */
export function parseYamlDocuments(file: string, text: string, { merge = false } = {}): ParsedYaml {
  const findings: Finding[] = [];
  const documents: unknown[] = [];
  for (const document of parseAllDocuments(text, { merge, uniqueKeys: true, prettyErrors: true })) {
    for (const error of [...document.errors, ...document.warnings]) findings.push(finding(file, error.message.split('\n')[0]!));
    const value: unknown = document.toJS({ maxAliasCount: 100 });
    if (value !== null && value !== undefined) documents.push(value);
  }
  return { documents, findings };
}
