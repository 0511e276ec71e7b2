/**
 * The environment of everything an agent or a repository makes run — `bash` (sandboxed or not, main agent and
 * subagents), hooks' commands, MCP stdio servers, and git and ripgrep in the workspace — built here and only here:
 * the host's environment less the credentials, so that a model (or a prompt injected into it) cannot echo, write or
 * send them.
 *
 *   host env ──▶ withheld?  name on the list, INPUT_*, or a value holding a credential the host holds ──▶ dropped
 *            ──▶ *_proxy (any case) with user:password@ ──▶ kept without the user info (the host stays)
 *            ──▶ named by the user (--tool-env NAME, delegate.toolEnv) ──▶ passed as it is, whatever the above
 *
 * The list covers what Claude Code's CLAUDE_CODE_SUBPROCESS_ENV_SCRUB removes (there opt-in; here the default), and
 * more: the Action's inputs (the runner hands each one to the action as INPUT_<NAME>, the API key among them) and
 * proxy passwords. GITHUB_TOKEN / GH_TOKEN stay, as there: a job-scoped token that `gh` and `git push` in a workflow
 * are expected to use.
 */

/** Variables that hold a credential and that no command needs by default. */
const WITHHELD = new Set([
  // Anthropic: this process's own credentials, and the other forms of them.
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'ANTHROPIC_FOUNDRY_API_KEY',
  'ANTHROPIC_CUSTOM_HEADERS',
  // OTLP exporters' headers carry `Authorization=Bearer …` for a monitoring backend.
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_LOGS_HEADERS',
  'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  // Cloud providers' secrets (the ids that go with them are not secret).
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'AZURE_CLIENT_SECRET',
  'AZURE_CLIENT_CERTIFICATE_PATH',
  // GitHub Actions' runtime: the token for the runner's services (cache, artifacts) and the one that mints OIDC
  // identity tokens (a cloud role's trust), which a node action's process gets and its commands must not.
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
]);

/** The runner's action inputs (`INPUT_ANTHROPIC-API-KEY`…): read by the action itself, never by a command. */
const WITHHELD_PREFIX = 'INPUT_';

/** HTTP_PROXY, https_proxy, ALL_PROXY, npm_config_https_proxy…: URLs that may carry `user:password@`. */
const PROXY_NAME = /(^|_)proxy$/i;

/** A credential shorter than this is not matched by value: it would drop unrelated variables that happen to hold it. */
const MIN_SECRET_LENGTH = 8;

export interface ToolEnvSettings {
  /** Variables the user lets through as they are (`--tool-env NAME`, `delegate.toolEnv`). */
  pass?: readonly string[];
  /** The credentials the host holds (the API key it uses, the one from the editor's secret storage): any variable holding one is withheld. */
  secrets?: () => readonly string[];
  /** Where the variables come from, read at each build; default process.env. */
  source?: () => NodeJS.ProcessEnv;
}

/** How one variable leaves: dropped, kept with another value (a proxy URL without its password), or as it is. */
export function withholding(name: string, value: string, secrets: readonly string[] = []): 'drop' | { value: string } | undefined {
  if (WITHHELD.has(name) || name.startsWith(WITHHELD_PREFIX)) return 'drop';
  // A copy of a credential, or a value that carries one (`x-api-key: sk-…`, a URL with the key in its path).
  if (secrets.some((secret) => secret.length >= MIN_SECRET_LENGTH && value.includes(secret))) return 'drop';
  if (PROXY_NAME.test(name)) {
    const stripped = withoutUserInfo(value);
    if (stripped !== value) return { value: stripped };
  }
  return undefined;
}

/** `http://user:pass@proxy:3128` → `http://proxy:3128`; anything that is not such a URL is returned as it is. */
function withoutUserInfo(value: string): string {
  // No user info without an '@' (NO_PROXY lists, plain proxies): nothing to parse, and no URL parser to load at start.
  if (!value.includes('@')) return value;
  // A proxy given without a scheme (`user:pass@host:3128`, which curl and proxy-from-env accept) is one too.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    // Not a URL: still never let an `x:y@` prefix through.
    return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/@\s]*@/i, '$1');
  }
  if (url.username === '' && url.password === '') return value;
  url.username = '';
  url.password = '';
  const out = url.href;
  // Keep the value's own shape: no scheme added, no trailing slash the user did not write.
  const shaped = withScheme === value ? out : out.slice('http://'.length);
  return value.endsWith('/') ? shaped : shaped.replace(/\/$/, '');
}

export class ToolEnv {
  private readonly pass: ReadonlySet<string>;

  constructor(private readonly settings: ToolEnvSettings = {}) {
    this.pass = new Set(settings.pass ?? []);
  }

  /** The environment of a command: the source's variables less what is withheld, then `extra` over them. */
  build(extra: Record<string, string> = {}): Record<string, string> {
    const source = this.source();
    const secrets = this.secrets();
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(source)) {
      if (value === undefined) continue;
      if (this.pass.has(name)) {
        env[name] = value;
        continue;
      }
      const rule = withholding(name, value, secrets);
      if (rule === undefined) env[name] = value;
      else if (rule !== 'drop') env[name] = rule.value;
    }
    return Object.assign(env, extra);
  }

  /** Only `names` (MCP servers inherit a few variables, as the SDK's default), plus what the user named; the same rules. */
  pick(names: readonly string[]): Record<string, string> {
    const all = this.build();
    const out: Record<string, string> = {};
    for (const name of [...names, ...this.pass]) if (all[name] !== undefined) out[name] = all[name];
    return out;
  }

  /** Whether `name` is set in the source but kept from commands (for a message that says why it is missing). */
  withholds(name: string): boolean {
    const value = this.source()[name];
    return value !== undefined && !this.pass.has(name) && withholding(name, value, this.secrets()) === 'drop';
  }

  private source(): NodeJS.ProcessEnv {
    return this.settings.source?.() ?? process.env;
  }

  private secrets(): readonly string[] {
    return this.settings.secrets?.() ?? [];
  }
}
