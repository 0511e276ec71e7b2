/**
 * The web tools through the built CLI: web_fetch of a page on 127.0.0.1 (HTML to markdown through turndown, a
 * chunk of its own loaded on first use; with `prompt`, the session's model answers from the page), and web
 * search, the API's server tool, offered with --web-search on and shown in the stream. A fetch from this machine
 * needs its own permission in every mode: `web_fetch(domain:127.0.0.1)`.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstUserText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';

const PAGE = '<!doctype html><html><head><title>T</title><script>var secret = 1;</script></head><body><h1>Release notes</h1><p>Version <b>PAGE-4.2</b> ships today.</p><ul><li>faster</li><li>smaller</li></ul></body></html>';

describe('delegate CLI: web tools', function () {
  this.timeout(30_000);
  const cli = cliSuite();
  let site: Server;
  let pageUrl: string;

  beforeEach(async () => {
    site = createServer((req, res) => {
      res.writeHead(req.url === '/notes' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(req.url === '/notes' ? PAGE : 'not here');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/notes`;
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  it('web_fetch returns the page as markdown; with a prompt the model answers from the page', async () => {
    cli.api.route([
      { name: 'page question', match: (r) => firstUserText(r).includes('PAGE-4.2') && !r.body.tools?.length, replies: [reply.text('The version is PAGE-4.2.')] },
      {
        name: 'main',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'web_fetch', input: { url: pageUrl } },
            { name: 'web_fetch', input: { url: pageUrl, prompt: 'Which version ships?' } },
          ]),
          reply.text('read it'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'read the notes', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--allowed-tools', 'web_fetch(domain:127.0.0.1)', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.equal(lastJsonLine(run.stdout).result, 'read it');
    const [page, answer] = lastToolResults(must(cli.api.messageRequests().at(-1)));
    assert.equal(page?.is_error, undefined, String(page?.content));
    assert.equal(page?.content, '# Release notes\n\nVersion **PAGE-4.2** ships today.\n\n- faster\n- smaller');
    assert.match(String(answer?.content), /^The version is PAGE-4\.2\.\n\n\[answered from http:\/\/127\.0\.0\.1:\d+\/notes\]$/);
    const question = must(cli.api.messageRequests().find((r: RecordedRequest) => !r.body.tools?.length));
    assert.match(firstUserText(question), /Which version ships\?/);
  });

  it('--web-search on offers the server tool; the search shows as a tool row in the stream', async () => {
    cli.api.script(
      reply.blocks(
        [
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'delegate cli' } },
          { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', title: 'Delegate', url: 'https://example.org/d', encrypted_content: 'x', page_age: null }] },
          { type: 'text', text: 'Found it.' },
        ],
        { stopReason: 'end_turn' },
      ),
    );
    const run = await runDelegate(['-p', 'search', '--cwd', cli.dirs.workdir, '--web-search', 'on', '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    // With the tools every agent shares (the agent's own task comes after it, for the prompt cache; task_output,
    // send_message and read_subagent follow once it has a subagent: offered-tools.test.ts).
    const tools = must(must(cli.api.messageRequests()[0]).body.tools);
    assert.deepEqual(tools.find((t) => t.name === 'web_search'), { type: 'web_search_20250305', name: 'web_search', max_uses: 5, cache_control: { type: 'ephemeral' } });
    assert.deepEqual(tools.slice(tools.findIndex((t) => t.name === 'web_search') + 1).map((t) => t.name), ['task']);
    const events = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const row = events.find((e) => e.type === 'tool_finished' && e.name === 'web_search');
    assert.equal(row?.output, 'Delegate — https://example.org/d');
    assert.equal(events.at(-1)?.result, 'Found it.');
  });
});
