import { sql } from '../../store/statement.ts';

type Count = number | string;

/** Console sessions, by the SHA-256 of their token. */
export const SESSION_STATEMENTS = {
  insertSession: sql(
    `INSERT INTO console_sessions (id, csrf, credential, created_at, seen_at, expires_at)
      VALUES ($id, $csrf, $credential, $created_at, $seen_at, $expires_at)`,
  ),
  session: sql<{
    id: string;
    csrf: string;
    credential: string;
    created_at: Count;
    seen_at: Count;
    expires_at: Count;
  }>('SELECT id, csrf, credential, created_at, seen_at, expires_at FROM console_sessions WHERE id = $id'),
  touchSession: sql('UPDATE console_sessions SET seen_at = $seen_at WHERE id = $id'),
  deleteSession: sql('DELETE FROM console_sessions WHERE id = $id'),
};
