// PostgreSQL's unique_violation (SQLSTATE 23505), as node-postgres and PGlite report it: the statement
// (and its transaction) failed and changed nothing, because another one wrote the same key first.

/** True for a unique violation, and, when `constraint` is given, only for one of that index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const fields = error as { code?: string; constraint?: string } | null | undefined;
  return fields?.code === '23505' && (constraint === undefined || fields.constraint === constraint);
}
