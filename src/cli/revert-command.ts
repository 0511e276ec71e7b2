/**
 * `delegate revert --session ID --agent ID`: undoes one finished subagent's file changes (and its
 * descendants'), from any folder — the session's transcript names its workspace. One stdout line per file:
 *
 *   restored  src/config.ts
 *   deleted   test/config.test.ts
 *   refused   src/app.ts  (it was changed since by someone else)     + on stderr: the diff it would undo
 *   skipped   gen.ts  (shared: `make` of the subagent "build" (…) ran at the same time and may have changed it;
 *             --include-shared reverts it too)
 *
 * Files a command changed in the workspace are put back like the rest; what else a command did (ignored files,
 * other folders, services) is not: stderr lists the commands. A file another subagent's overlapping call may
 * have changed (shared) is left alone unless --include-shared. Exit 0 when every file was put back, 1 when a
 * file was refused or skipped, 2 on bad usage or when the session or the subagent cannot be reverted.
 */
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import type { Writers } from './output';
import { subcommandArgs } from './session-subcommand';
import { history, SessionBusyError } from '../core/session/history';

const REVERT_USAGE = `Usage: delegate revert --session ID --agent ID [--include-shared] [--output-format text|json]

Restores the files a finished subagent (and the subagents it started) created, modified or deleted with
write_file / edit_file: a file it created is deleted, a modified one gets its previous content back. A file
someone changed afterwards is refused (its diff goes to stderr). Files its commands changed are put back too;
what else they did (ignored files, other folders) is not: they are listed.
A file changed while another subagent's command ran too, where neither command (or both) names it, is shared:
either could have made the change, so it is skipped unless --include-shared puts it back as well.
The agent id is in the JSON result (subagents[].id) and in the transcript. Works from any folder.
Exit status: 0 every file put back, 1 a file was refused or skipped, 2 bad usage or nothing to revert.`;

type Parsed = { kind: 'revert'; session: string; agent: string; json: boolean; includeShared: boolean } | { kind: 'help' } | { kind: 'error'; message: string };

function parseRevertArgs(argv: string[]): Parsed {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: { session: { type: 'string' }, agent: { type: 'string' }, 'include-shared': { type: 'boolean' }, 'output-format': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (err) {
    return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
  if (values.help) return { kind: 'help' };
  if (!values.session) return { kind: 'error', message: 'revert needs --session ID' };
  if (!values.agent) return { kind: 'error', message: 'revert needs --agent ID (a subagent of that session)' };
  const format = values['output-format'] ?? 'text';
  if (format !== 'text' && format !== 'json') return { kind: 'error', message: `--output-format must be text or json (got "${format}")` };
  return { kind: 'revert', session: values.session, agent: values.agent, json: format === 'json', includeShared: values['include-shared'] === true };
}

export async function revertMain(argv: string[], env: NodeJS.ProcessEnv, out: Writers): Promise<number> {
  const parsed = await subcommandArgs(parseRevertArgs(argv), REVERT_USAGE, out);
  if (typeof parsed === 'number') return parsed;
  const sessions = history({ env, home: homedir() });
  const plan = await sessions.revertPlan(parsed.session, parsed.agent);
  if ('error' in plan) {
    out.stderr(`delegate: cannot revert: ${plan.error}\n`);
    return 2;
  }
  let report: Awaited<ReturnType<typeof sessions.revert>>;
  try {
    report = await sessions.revert(parsed.session, plan, undefined, { includeShared: parsed.includeShared });
  } catch (err) {
    if (!(err instanceof SessionBusyError)) throw err;
    out.stderr(`delegate: cannot revert now: ${err.message}\n`);
    return 2;
  }
  const refused = report.files.filter((f) => f.outcome === 'refused');
  const skipped = report.files.filter((f) => f.outcome === 'skipped');
  if (parsed.json) {
    await out.stdout(
      JSON.stringify({ type: 'revert', session_id: plan.sessionId, agent_id: plan.agentId, workspace: plan.workdir, files: report.files, already_reverted: report.alreadyReverted, commands: report.commands }) + '\n',
    );
  } else {
    const lines = [
      ...report.files.map((f) => `${f.outcome.padEnd(9)} ${f.path}${f.outcome === 'skipped' ? `  (${f.reason ?? 'shared'}; --include-shared reverts it too)` : f.reason ? `  (${f.reason})` : ''}`),
      ...report.alreadyReverted.map((path) => `${'already'.padEnd(9)} ${path}  (reverted earlier)`),
    ];
    if (lines.length) await out.stdout(`${lines.join('\n')}\n`);
    else out.stderr(`delegate: nothing to revert: ${plan.description} changed no files\n`);
    for (const f of refused) if (f.diff) out.stderr(`delegate: ${f.path} was not reverted; what changed since the subagent's last change:\n${f.diff}\n`);
  }
  if (report.commands.length) {
    out.stderr(`delegate: what these commands did beyond the workspace's files is not reverted (ignored files, other folders): ${report.commands.map((c) => `\`${c}\``).join(', ')}\n`);
  }
  return refused.length || skipped.length ? 1 : 0;
}
