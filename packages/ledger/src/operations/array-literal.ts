// PostgreSQL array literals built in JavaScript: the ledger's one way to pass a list as a parameter
// (`= ANY($1::uuid[])`), and for statements that take a batch as one array per column
// (`unnest($1::uuid[], $2::text[], …)`) instead of one JSON document with an object per row.
// The database parses each element with its column's own input function; it does not first parse a JSON
// document whose keys repeat on every row and then look each field up by name. For the statement that
// writes requests paid from allowances (200 rows), reading the batch alone took 12.6–13.3 µs a row of
// PGlite's time as JSON and 8.3 as arrays (bench/HISTORY.md, session 33).
//
// Every element is double-quoted, with backslashes and double quotes escaped, so no value can end an
// element or the array (commas, braces, spaces and the word NULL inside a value stay text); a null is the
// bare word NULL. The whole literal then travels as one text parameter, which the statement casts.

/** `{"a","b",NULL}`: an array literal of these elements, null for SQL NULL. */
export function arrayLiteral(values: ReadonlyArray<string | null>): string {
  let text = '{';
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    if (index > 0) text += ',';
    text += value === null || value === undefined ? 'NULL' : `"${escapeElement(value)}"`;
  }
  return `${text}}`;
}

const NEEDS_ESCAPE = /["\\]/;

function escapeElement(value: string): string {
  return NEEDS_ESCAPE.test(value) ? value.replaceAll('\\', '\\\\').replaceAll('"', '\\"') : value;
}

/**
 * One array literal per column of `rows`, in the order `columns` names them: what a statement that takes
 * its batch as `unnest($1::uuid[], $2::text[], …)` is given. Each column reads one value of a row (null
 * for SQL NULL).
 */
export function arrayColumns<T>(rows: readonly T[], columns: ReadonlyArray<(row: T) => string | null>): string[] {
  return columns.map((column) => arrayLiteral(rows.map(column)));
}
