// Stores and reads password hashes (the hashing itself is the control plane's job).
import type { SqlClient } from '../sql-client.js';

export async function setPasswordHash(sql: SqlClient, userId: string, passwordHash: string): Promise<void> {
  await sql.query(`UPDATE users SET password_hash = $2 WHERE id = $1::uuid`, [userId, passwordHash]);
}

export async function findLoginUser(sql: SqlClient, email: string): Promise<{ userId: string; email: string; passwordHash: string | null } | undefined> {
  const [row] = await sql.query<{ id: string; email: string; password_hash: string | null }>(
    `SELECT id, email, password_hash FROM users WHERE email = $1`,
    [email.trim().toLowerCase()],
  );
  return row && { userId: row.id, email: row.email, passwordHash: row.password_hash };
}
