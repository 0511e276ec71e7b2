import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/messages-api-server';
import { runDelegate } from '../support/run-cli';
import { cliSuite } from '../support/cli-suite';

describe('probe3', function () {
  this.timeout(60_000);
  const cli = cliSuite();
  for (const where of [['.claude', 'agents', 'x.md'], ['.mcp.json'], ['.claude', 'settings.json']]) {
    it(`FIFO at ${where.join('/')}`, async () => {
      const w = cli.dirs.workdir;
      mkdirSync(join(w, ...where.slice(0, -1)), { recursive: true });
      execFileSync('mkfifo', [join(w, ...where)]);
      cli.api.script(reply.text('done'));
      const t = Date.now();
      const run = await runDelegate(['-p', 'go', '--cwd', w], { env: cli.env(), timeoutMs: 8000 }).catch((e: Error) => ({ code: 'timeout', stderr: e.message.slice(0, 200) }));
      console.log(where.join('/'), run.code, Date.now() - t, run.stderr.trim().slice(0, 300));
    });
  }
});
