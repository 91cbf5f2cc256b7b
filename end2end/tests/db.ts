// Reads the server's SQLite file with Debian's sqlite3 command (WAL-aware).
import { execFileSync } from 'node:child_process';

export function query<T = Record<string, unknown>>(sql: string): T[] {
  const db = process.env.GAPWISE_E2E_DB;
  if (!db) throw new Error('GAPWISE_E2E_DB is not set');
  const out = execFileSync('sqlite3', ['-json', db, sql], { encoding: 'utf8' }).trim();
  return out ? (JSON.parse(out) as T[]) : [];
}
