// The gapwise command line on the browser tests' database.
import { execFileSync } from 'node:child_process';

/** Runs `gapwise args...` on the test database; returns what it printed. */
export function gapwise(args: string[], extra: Record<string, string> = {}): string {
  const env = { ...process.env, DATABASE_URL: `sqlite://${process.env.GAPWISE_E2E_DB}`, ...extra };
  return execFileSync(process.env.GAPWISE_BIN ?? 'gapwise', args, { env, stdio: 'pipe', encoding: 'utf8' });
}

/** The default English model's file, which scripts/test.sh passes on. */
export function defaultModel(): string {
  const model = process.env.GAPWISE_SMOLLM2_GGUF;
  if (!model) throw new Error('GAPWISE_SMOLLM2_GGUF is not set: run the browser tests through scripts/test.sh');
  return model;
}

/** Makes a staff account; one already made by an earlier run on the same database is kept. */
export function addStaff(name: string, role: 'admin' | 'researcher', password: string) {
  try {
    gapwise(['add-staff', name, '--role', role], { GAPWISE_PASSWORD: password });
  } catch (e) {
    if (!String((e as { stderr?: string }).stderr ?? '').includes('already exists')) throw e;
  }
}
