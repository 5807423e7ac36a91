// A client over `sql` that records the name of every statement sent through it, in order (background work
// included: it has no separate background view, so nothing bypasses the record).
import type { SqlClient } from '../sql-client.js';

export function recordingStatementNames(sql: SqlClient): { sql: SqlClient; names: string[] } {
  const names: string[] = [];
  const recording: SqlClient = {
    ...sql,
    background: undefined,
    query: (text, values, name) => {
      names.push(name ?? '');
      return sql.query(text, values, name);
    },
  };
  return { sql: recording, names };
}
