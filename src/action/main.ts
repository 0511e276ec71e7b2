/**
 * The GitHub Action (action.yml at the repository root): one headless Delegate run as a workflow step.
 *
 *   inputs (core.getInput) ─► inputs.ts ─► cli-process.ts: node bin/delegate.js -p - --output-format=json …
 *                                              │ the CLI's JSON result
 *        outputs (status, result, session-id, cost-usd, transcript,   ◄─┤
 *                 structured-output, subagent-outputs: typed JSON)     │
 *        job summary (summary.ts: the subagent tree)                  ◄─┤
 *        the transcript as an artifact (transcript-artifact.ts)       ◄─┘
 *   the step fails on an error (or an interruption), and on budget_exceeded with fail-on-budget.
 *
 * A host like the CLI and the editor, but it runs no agent itself: it only spawns the built CLI. `run()` is
 * what @github/local-action calls; index.ts (the bundle's entry, dist/action/index.js) calls it on the runner.
 */
import { resolve } from 'node:path';
import * as core from '@actions/core';
import type { ResultObject } from '../cli/output';
import { sealProcessEnvironment } from '../core/session/process-environment';
import { runCli, type CliOutcome } from './cli-process';
import { checkWorkdir, readInputs } from './inputs';
import { buildSummary } from './summary';
import { defaultArtifactName, transcriptFiles, uploadTranscript } from './transcript-artifact';

/** bin/delegate.js, two folders up from this file and from the bundle (src/action/, dist/action/). */
const CLI = resolve(__dirname, '..', '..', 'bin', 'delegate.js');

export async function run(): Promise<void> {
  // The runner hands this process its inputs (the key among them) and its runtime tokens as variables: out of the
  // environment block, which an unsandboxed command of the agent could read as /proc/<pid>/environ.
  const sealed = sealProcessEnvironment();
  if (sealed.note) core.debug(sealed.note);
  try {
    const inputs = readInputs((name) => core.getInput(name), process.env);
    if (inputs.secret) core.setSecret(inputs.secret);
    checkWorkdir(inputs.workdir, core.getInput('working-directory').trim());
    const outcome = await runCli({ bin: CLI, args: inputs.args, env: inputs.env, cwd: inputs.workdir, prompt: inputs.prompt, onStderr: (text) => process.stderr.write(text) });
    const result = outcome.result;
    core.setOutput('status', result?.status ?? 'error');
    if (result) {
      core.setOutput('result', result.result);
      core.setOutput('session-id', result.session_id);
      core.setOutput('cost-usd', result.total_cost_usd !== undefined ? String(result.total_cost_usd) : '');
      core.setOutput('transcript', result.transcript);
      core.setOutput('structured-output', result.structured_output !== undefined ? JSON.stringify(result.structured_output) : '');
      core.setOutput('subagent-outputs', JSON.stringify(typedOutputs(result)));
      await writeSummary(result, inputs.prompt);
      if (inputs.uploadTranscript) await upload(inputs.artifactName || defaultArtifactName(result.session_id), result.transcript);
    }
    const failure = failureOf(outcome, inputs.failOnBudget);
    if (failure) core.setFailed(failure);
  } catch (err) {
    core.setFailed(`delegate: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The typed returns of the run's subagents (task's output_schema, an agent file's output:), in finishing order. */
function typedOutputs(result: ResultObject): { id: string; description: string; agent_type: string; output: unknown }[] {
  return result.subagents.filter((s) => s.output !== undefined).map((s) => ({ id: s.id, description: s.description, agent_type: s.agent_type, output: s.output }));
}

/** Why the step fails, or undefined when it passes. */
function failureOf(outcome: CliOutcome, failOnBudget: boolean): string | undefined {
  const r = outcome.result;
  if (!r) return `delegate exited with ${outcome.code ?? 'a signal'}: ${outcome.reason.replace(/^delegate: /, '') || 'no result'}`;
  switch (r.status) {
    case 'error':
      return `delegate: the run failed: ${r.error ?? outcome.reason}`;
    case 'cancelled':
      return 'delegate: the run was interrupted';
    case 'budget_exceeded':
      return failOnBudget ? `delegate: the run stopped at its budget (${r.error ?? 'budget reached'}), and fail-on-budget is set` : undefined;
    default:
      return outcome.code === 0 ? undefined : `delegate exited with ${outcome.code ?? 'a signal'}: ${outcome.reason}`;
  }
}

async function writeSummary(result: ResultObject, prompt: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) {
    core.info('no GITHUB_STEP_SUMMARY: the job summary is not written');
    return;
  }
  await core.summary.addRaw(buildSummary(result, prompt)).write();
}

/** A failed upload (no artifact service: a run outside GitHub) is a warning; the run's outcome stands. */
async function upload(name: string, sessionFile: string): Promise<void> {
  try {
    const uploaded = await uploadTranscript(name, transcriptFiles(sessionFile));
    core.setOutput('artifact-name', name);
    core.info(`transcript uploaded: artifact ${name}${uploaded.id !== undefined ? ` (id ${uploaded.id})` : ''}`);
  } catch (err) {
    core.warning(`the transcript was not uploaded (${err instanceof Error ? err.message : String(err)}); it is at ${sessionFile}`);
  }
}
