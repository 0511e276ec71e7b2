/**
 * The action's inputs (action.yml) → the CLI's flags and environment. No @actions/core here: main.ts hands in
 * the input getter, so this is a plain function the unit tests call. The CLI checks the values (a bad number is
 * its one-line usage error), this only says which flag each input becomes.
 *
 *   prompt ─────────────► stdin of `delegate -p -`
 *   model, max-turns… ──► --model=…, --max-turns=…           (empty: the CLI's default; output-schema: a typed run)
 *   (always) ───────────► --trust-folder: the folder's own hooks and .mcp.json servers run (it is the workflow's checkout)
 *   anthropic-api-key ──► ANTHROPIC_API_KEY  (else the step's env)
 *   base-url ───────────► ANTHROPIC_BASE_URL (else the step's env)
 *   tool-env ───────────► --tool-env=NAME per name
 *
 * The CLI's environment is the step's less what is the action's own: its inputs (INPUT_*) and the runner's tokens
 * for its services (artifacts, OIDC), which the CLI never uses. The CLI withholds every other credential from the
 * agent's commands itself.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';

/** Inputs passed through as `--flag=value` when not empty. */
const FLAG_INPUTS = ['model', 'permission-mode', 'allowed-tools', 'max-budget-usd', 'subagent-max-tokens', 'max-turns', 'output-schema'] as const;

export interface ActionInputs {
  prompt: string;
  /** The folder the agent works in. */
  workdir: string;
  /** Everything after `bin/delegate.js`. */
  args: string[];
  /** The CLI's environment. */
  env: Record<string, string>;
  failOnBudget: boolean;
  /** Upload the transcript as an artifact. */
  uploadTranscript: boolean;
  /** The artifact's name; empty: from the session id. */
  artifactName: string;
  /** A key given as an input (to be masked in the log). */
  secret?: string;
}

/** Thrown for an input that cannot be read; main.ts fails the step with its message. */
export class InputError extends Error {}

export function readInputs(get: (name: string) => string, env: NodeJS.ProcessEnv): ActionInputs {
  const prompt = get('prompt');
  if (prompt.trim() === '') throw new InputError('the prompt input is empty');
  // Relative to the workspace, as a step's own `working-directory` is (the CLI runs in it: a relative --cwd would be
  // taken from there a second time).
  const base = env.GITHUB_WORKSPACE || process.cwd();
  const workdir = resolve(base, get('working-directory').trim() || '.');
  const args = ['-p', '-', `--cwd=${workdir}`, '--output-format=json'];
  for (const name of FLAG_INPUTS) {
    const value = get(name).trim();
    if (value !== '') args.push(`--${name}=${value}`);
  }
  if (bool(get, 'verbose', true)) args.push('--verbose');
  // The workflow checked this folder out to run Delegate in it: its hooks and .mcp.json servers are the workflow's.
  args.push('--trust-folder');
  for (const name of get('tool-env').split(/[\s,]+/).filter(Boolean)) args.push(`--tool-env=${name}`);

  const childEnv = cliEnv(env);
  const key = get('anthropic-api-key').trim();
  if (key !== '') childEnv.ANTHROPIC_API_KEY = key;
  const baseUrl = get('base-url').trim();
  if (baseUrl !== '') childEnv.ANTHROPIC_BASE_URL = baseUrl;
  // One run's transcripts in a folder of their own (the runner empties RUNNER_TEMP after each job), unless the
  // workflow chose a data home.
  childEnv.XDG_DATA_HOME ??= join(env.RUNNER_TEMP || tmpdir(), 'delegate-data');

  return {
    prompt,
    workdir,
    args,
    env: childEnv,
    failOnBudget: bool(get, 'fail-on-budget', false),
    uploadTranscript: bool(get, 'upload-transcript', true),
    artifactName: get('artifact-name').trim(),
    ...(key !== '' ? { secret: key } : {}),
  };
}

/** The runner's tokens for the action's own use (the artifact client, an OIDC exchange): the CLI has none. */
const RUNNER_TOKENS = new Set(['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_URL']);

/** The step's environment without the runner's INPUT_* variables (an input may be a key) and its tokens. */
function cliEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !name.startsWith('INPUT_') && !RUNNER_TOKENS.has(name)) out[name] = value;
  return out;
}

/** The folder the run works in must be one: said in one line (the CLI would not even start in a missing one). */
export function checkWorkdir(workdir: string, given: string): void {
  let what: string;
  try {
    if (statSync(workdir).isDirectory()) return;
    what = 'is not a folder';
  } catch {
    what = 'does not exist';
  }
  throw new InputError(given ? `the working-directory input "${given}" ${what} (${workdir})` : `the workspace ${workdir} ${what}: set the working-directory input`);
}

/** A boolean input as GitHub's YAML core schema spells it; empty: the default (a run outside the runner). */
function bool(get: (name: string) => string, name: string, fallback: boolean): boolean {
  const raw = get(name).trim();
  if (raw === '') return fallback;
  if (['true', 'True', 'TRUE'].includes(raw)) return true;
  if (['false', 'False', 'FALSE'].includes(raw)) return false;
  throw new InputError(`the ${name} input must be true or false (got "${raw}")`);
}
