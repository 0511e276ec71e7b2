/**
 * web_fetch's permissions through the built CLI, which cannot ask: in plan mode it is refused with the rule that
 * allows the host; a fetch to this machine is refused even in bypassPermissions, and allowed by a rule naming the host.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';

describe('delegate CLI: web_fetch permissions', function () {
  this.timeout(30_000);
  const cli = cliSuite();
  let page: Server;
  let pageUrl: string;
  let served = 0;
  const fetchResult = () => lastToolResults(cli.api.messageRequests()[1] as RecordedRequest)[0];

  before(async () => {
    page = createServer((_req, res) => {
      served++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('the dev server page');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/status`;
  });
  after(() => page.close());
  beforeEach(async () => {
    served = 0;
  });

  it('plan mode: web_fetch is refused with why and the rule that allows the host; -v shows it as one line', async () => {
    cli.api.script(reply.toolUse({ name: 'web_fetch', input: { url: 'https://docs.example.com/guide?q=from-the-workspace' } }), reply.text('Could not fetch.'));
    const run = await runDelegate(['-p', 'plan it', '--cwd', cli.dirs.workdir, '--permission-mode', 'plan', '-v'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const result = fetchResult();
    assert.equal(result?.is_error, true);
    assert.match(
      String(result?.content),
      /^Permission denied: plan mode is read-only, but a fetch can carry what the agent read out in its URL: web_fetch wants to fetch https:\/\/docs\.example\.com\/guide\?q=from-the-workspace; the headless CLI cannot ask for approval: rerun with --allowed-tools "web_fetch\(domain:docs\.example\.com\)" \(or --allowed-tools web_fetch for every host\) to allow it\./,
    );
    assert.equal(run.stderr.split('\n').filter((l) => l.includes('✗') && l.includes('Permission denied: plan mode')).length, 1, run.stderr);
  });

  it('a fetch to 127.0.0.1 is refused in bypassPermissions, naming the host and the rule; nothing reaches the server', async () => {
    cli.api.script(reply.toolUse({ name: 'web_fetch', input: { url: pageUrl } }), reply.text('Refused.'));
    const run = await runDelegate(['-p', 'check the dev server', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const result = fetchResult();
    assert.equal(result?.is_error, true);
    const port = new URL(pageUrl).port;
    assert.match(
      String(result?.content),
      new RegExp(`^Permission denied: web_fetch wants to fetch from this machine: 127\\.0\\.0\\.1:${port} \\(${pageUrl.replace(/[./]/g, '\\$&')}\\); fetches to this machine or a private network are asked in every permission mode; the headless CLI cannot ask for approval: rerun with --allowed-tools "web_fetch\\(domain:127\\.0\\.0\\.1\\)" \\(bypassPermissions does not cover it\\) to allow it\\.`),
    );
    assert.equal(served, 0);
  });

  it('--allowed-tools "web_fetch(domain:127.0.0.1)" allows it in default mode (no other question either)', async () => {
    cli.api.script(reply.toolUse({ name: 'web_fetch', input: { url: pageUrl } }), reply.text('It is up.'));
    const run = await runDelegate(['-p', 'check the dev server', '--cwd', cli.dirs.workdir, '--allowed-tools', 'web_fetch(domain:127.0.0.1)'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr.includes('rules with content'), false, run.stderr);
    const result = fetchResult();
    assert.equal(result?.is_error, undefined, String(result?.content));
    assert.equal(result?.content, 'the dev server page');
    assert.equal(served, 1);
  });
});
