// Reads the server's SQLite file with Debian's sqlite3 command (WAL-aware).
import { execFileSync } from 'node:child_process';

export function query<T = Record<string, unknown>>(sql: string): T[] {
  const db = process.env.GAPWISE_E2E_DB;
  if (!db) throw new Error('GAPWISE_E2E_DB is not set');
  const out = execFileSync('sqlite3', ['-json', db, sql], { encoding: 'utf8' }).trim();
  return out ? (JSON.parse(out) as T[]) : [];
}

/** Publishes a Likert item (one sentence, copied from a game item) in `lang`, of the
 *  pair with the longest words there: the hardest to fit on the scale's buttons. */
export function addLikertItem(lang: string): { target: string; distractor: string } {
  const [pair] = query<{ id: number; target: string; distractor: string }>(
    `SELECT p.id, p.target, p.distractor FROM word_pairs p WHERE p.lang = '${lang}'
     AND EXISTS (SELECT 1 FROM items i WHERE i.pair_id = p.id AND i.kind = 'choice')
     ORDER BY LENGTH(p.target) + LENGTH(p.distractor) DESC LIMIT 1`,
  );
  query(`INSERT INTO items (pair_id, k, kind, created_at) VALUES (${pair.id}, 1, 'likert', 0)`);
  query(`INSERT INTO item_contexts (item_id, position, sentence_id, blank_start, blank_end)
         SELECT (SELECT MAX(id) FROM items), 0, sentence_id, blank_start, blank_end FROM item_contexts
         WHERE item_id = (SELECT MIN(id) FROM items WHERE pair_id = ${pair.id} AND kind = 'choice') AND position = 0`);
  return pair;
}
