/**
 * The skeleton every built-CLI suite shares, in one place: the build checked once, a fresh local Messages-API
 * server and fresh folders for each test (the server closed after it), and the environment that points the CLI
 * at both. Call it inside `describe(…, function () { … })`; its hooks run before the suite's own.
 *
 *   const cli = cliSuite();
 *   it('…', async () => {
 *     cli.api.script(reply.text('hi'));
 *     const run = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env() });
 *   });
 */
import { startMessagesApiServer, type MessagesApiServer, type MessagesApiServerOptions } from '../fixtures/messages-api-server';
import { assertBuilt } from './run-cli';
import { cliDirs } from './temp-dirs';

export interface CliDirs {
  workdir: string;
  dataHome: string;
}

export interface CliSuite<D> {
  /** This test's server. */
  readonly api: MessagesApiServer;
  /** This test's folders. */
  readonly dirs: D;
  /** The CLI's environment: the test key, this server, this data home; `extra` over it. */
  env(extra?: Record<string, string>): Record<string, string>;
}

/** The default suite: cliDirs' workspace and data home, XDG_DATA_HOME pointing at the latter. */
export function cliSuite(options: { server?: MessagesApiServerOptions } = {}): CliSuite<CliDirs> {
  return cliSuiteWith({ ...options, dirs: cliDirs, dataEnv: (d) => ({ XDG_DATA_HOME: d.dataHome }) });
}

/** A suite with folders of its own (a fixture repository, a HOME): `dataEnv` says where the CLI keeps its data. */
export function cliSuiteWith<D>(options: { server?: MessagesApiServerOptions; dirs: () => D; dataEnv: (dirs: D) => Record<string, string> }): CliSuite<D> {
  let api: MessagesApiServer | undefined;
  let dirs: D | undefined;

  before(assertBuilt);
  beforeEach(async () => {
    api = await startMessagesApiServer(options.server);
    dirs = options.dirs();
  });
  afterEach(async () => {
    await api?.close();
  });

  const current = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`cliSuite: no ${what} outside a test`);
    return value;
  };
  return {
    get api() {
      return current(api, 'server');
    },
    get dirs() {
      return current(dirs, 'folders');
    },
    env: (extra = {}) => ({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: current(api, 'server').baseURL, ...options.dataEnv(current(dirs, 'folders')), ...extra }),
  };
}
