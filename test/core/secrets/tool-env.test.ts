/**
 * The tool environment's rules one by one (the built CLI's tests, test/cli/tool-env.test.ts, hold them end to end),
 * and clearing the environment block in a real child process.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { ToolEnv, withholding } from '../../../src/core/secrets/tool-env';

describe('the tool environment', () => {
  it('drops credentials by name, INPUT_* and values holding a held credential; keeps the rest and GITHUB_TOKEN', () => {
    const source = {
      PATH: '/usr/bin',
      ANTHROPIC_API_KEY: 'sk-a',
      AWS_SECRET_ACCESS_KEY: 'aws',
      AWS_ACCESS_KEY_ID: 'AKIA…',
      'INPUT_ANTHROPIC-API-KEY': 'sk-a',
      INPUT_PROMPT: 'hello',
      ACTIONS_RUNTIME_TOKEN: 'rt',
      GITHUB_TOKEN: 'ghs',
      MY_COPY: 'sk-held-credential',
      CURL_HEADERS: 'x-api-key: sk-held-credential',
      SHORT: 'abc',
      HAS_SHORT: 'abcdef',
    };
    const env = new ToolEnv({ source: () => source, secrets: () => ['sk-held-credential', 'abc'] }).build({ PAGER: 'cat' });
    assert.deepEqual(env, { PATH: '/usr/bin', AWS_ACCESS_KEY_ID: 'AKIA…', GITHUB_TOKEN: 'ghs', SHORT: 'abc', HAS_SHORT: 'abcdef', PAGER: 'cat' });
  });

  it('passes a named variable as it is, proxies included; pick() adds the named ones to the inherited few', () => {
    const source = { HOME: '/h', ANTHROPIC_API_KEY: 'sk-a', HTTPS_PROXY: 'http://u:p@proxy:3128', OTHER: 'x' };
    const tools = new ToolEnv({ pass: ['ANTHROPIC_API_KEY', 'HTTPS_PROXY'], source: () => source });
    assert.deepEqual(tools.build(), source);
    assert.deepEqual(tools.pick(['HOME', 'MISSING']), { HOME: '/h', ANTHROPIC_API_KEY: 'sk-a', HTTPS_PROXY: 'http://u:p@proxy:3128' });
    assert.equal(tools.withholds('ANTHROPIC_API_KEY'), false);
    assert.equal(new ToolEnv({ source: () => source }).withholds('ANTHROPIC_API_KEY'), true);
    assert.equal(new ToolEnv({ source: () => source }).withholds('NOT_SET'), false);
  });

  it('strips user info from proxy URLs of any case and shape, and leaves other values alone', () => {
    const cases: [string, string, string | undefined][] = [
      ['HTTPS_PROXY', 'http://user:pass@proxy.example:3128', 'http://proxy.example:3128'],
      ['https_proxy', 'http://user:pass@proxy.example:3128/', 'http://proxy.example:3128/'],
      ['ALL_PROXY', 'socks5://user:p%40ss@10.0.0.1:1080', 'socks5://10.0.0.1:1080'],
      ['http_proxy', 'user:pass@proxy.example:8080', 'proxy.example:8080'],
      ['npm_config_https_proxy', 'http://token@proxy.example', 'http://proxy.example'],
      ['HTTP_PROXY', 'http://proxy.example:3128', undefined],
      ['NO_PROXY', 'localhost,127.0.0.1,.corp', undefined],
      ['GIT_PROXY_COMMAND', 'user:pass@host', undefined],
    ];
    for (const [name, value, expected] of cases) {
      const rule = withholding(name, value);
      assert.deepEqual(rule, expected === undefined ? undefined : { value: expected }, `${name}=${value}`);
    }
  });

  it("clears what it withholds from a real process's /proc/<pid>/environ and keeps it in process.env (re-set on the heap)", function () {
    if (process.platform !== 'linux') this.skip();
    const script = `
      const { sealProcessEnvironment } = require(${JSON.stringify(require.resolve('../../../src/core/secrets/process-environment'))});
      const sealed = sealProcessEnvironment(['ANTHROPIC_API_KEY']);
      const environ = require('fs').readFileSync('/proc/self/environ', 'latin1');
      process.stdout.write(JSON.stringify({ sealed, environHasKey: environ.includes('sk-unit-FAKE'), environHasAws: environ.includes('aws-unit-FAKE'),
        environHasProxy: environ.includes('proxypass-FAKE'), keyInEnv: process.env.ANTHROPIC_API_KEY ?? null, aws: process.env.AWS_SECRET_ACCESS_KEY, proxy: process.env.HTTPS_PROXY, keep: process.env.KEEP }));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
      env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-unit-FAKE', AWS_SECRET_ACCESS_KEY: 'aws-unit-FAKE', HTTPS_PROXY: 'http://u:proxypass-FAKE@h:1', KEEP: 'yes' },
      encoding: 'utf8',
    });
    const r = JSON.parse(out) as Record<string, unknown>;
    assert.deepEqual(r, {
      sealed: { taken: { ANTHROPIC_API_KEY: 'sk-unit-FAKE' } },
      environHasKey: false,
      environHasAws: false,
      environHasProxy: false,
      keyInEnv: null,
      aws: 'aws-unit-FAKE',
      proxy: 'http://u:proxypass-FAKE@h:1',
      keep: 'yes',
    });
  });
});
