/** A workspace folder and a transcript root for one core session test (the CLI's are run-cli.ts's makeDirs). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function sessionDirs(): { workdir: string; transcriptRoot: string } {
  return { workdir: mkdtempSync(join(tmpdir(), 'delegate-sess-ws-')), transcriptRoot: mkdtempSync(join(tmpdir(), 'delegate-sess-tr-')) };
}
