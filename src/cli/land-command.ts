/**
 * `delegate land --session ID [--agent ID…] [--land-check CMD] [--discard | --revert]`: isolated subagents' kept
 * changes (their branches) landed into the session's folder in order, each by a 3-way merge; with a check, the
 * combination passes it in a scratch worktree first, or nothing lands. One stdout line per subagent:
 *
 *   landed     a1b2c3d4  app.txt, lib/x.ts
 *   conflict   e5f6a7b8  app.txt: lines 1-5 (with a1b2c3d4)          nothing of it written
 *   check_failed …       + on stderr: the check's output, and which subagent broke it
 *
 * Exit 0: everything landed (discarded, reverted); 1: a conflict or a failed check; 2: bad usage or nothing to land.
 *
 * `--resolve`: the session is opened (run.ts, its settings and model) and lands as its main agent's `land` tool does,
 * each conflict handed to a resolver subagent whose result lands like any child's (land-tool.ts landAndResolve).
 */
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import type { Writers } from './output';
import { subcommandArgs } from './session-subcommand';
import { parseCliArgs } from './args';
import { history, SessionBusyError, ToolEnv } from '../core/session/history';

const LAND_USAGE = `Usage: delegate land --session ID [--agent ID]... [--land-check CMD] [--discard | --revert | --resolve [--permission-mode MODE]] [--output-format text|json]

Lands isolated subagents' changes (kept on branches when they ran with isolation: worktree) into the session's
folder, in the order they finished (or the order of --agent), each by a 3-way merge: a subagent whose changes
conflict with the folder or an earlier one lands none of its files, and the conflict is listed (file, lines, with
whom). --land-check CMD (default: the session's --land-check / delegate.landCheck; '' for none) runs CMD on all
of them combined in a scratch worktree first: if it fails nothing lands, and the first subagent whose change makes
it fail is named.
--discard drops their branches instead; --revert puts back what landed ones changed (their own patch reversed).
--resolve hands each conflict to a resolver subagent (the session's model; it works on a copy of the folder with
the conflicts marked, and edits there: --permission-mode acceptEdits lets it write headless), whose result lands
like any subagent's, after the check.
Exit status: 0 all landed, 1 a conflict or a failed check, 2 bad usage or nothing to land.`;

type Parsed = { kind: 'land'; session: string; agents: string[]; check?: string; action: 'land' | 'discard' | 'revert'; json: boolean; resolve?: { mode?: string } } | { kind: 'help' } | { kind: 'error'; message: string };

function parseLandArgs(argv: string[]): Parsed {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: { session: { type: 'string' }, agent: { type: 'string', multiple: true }, 'land-check': { type: 'string' }, discard: { type: 'boolean' }, revert: { type: 'boolean' }, resolve: { type: 'boolean' }, 'permission-mode': { type: 'string' }, 'output-format': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (err) {
    return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
  if (values.help) return { kind: 'help' };
  if (!values.session) return { kind: 'error', message: 'land needs --session ID' };
  if ([values.discard, values.revert, values.resolve].filter(Boolean).length > 1) return { kind: 'error', message: '--discard, --revert and --resolve do not go together' };
  if (values['permission-mode'] !== undefined && !values.resolve) return { kind: 'error', message: '--permission-mode goes with --resolve (the resolver subagents run under it)' };
  const format = values['output-format'] ?? 'text';
  if (format !== 'text' && format !== 'json') return { kind: 'error', message: `--output-format must be text or json (got "${format}")` };
  const check = values['land-check']?.trim();
  return { kind: 'land', session: values.session, agents: values.agent ?? [], ...(check !== undefined ? { check } : {}), action: values.discard ? 'discard' : values.revert ? 'revert' : 'land', json: format === 'json', ...(values.resolve ? { resolve: values['permission-mode'] ? { mode: values['permission-mode'] } : {} } : {}) };
}

export async function landMain(argv: string[], env: NodeJS.ProcessEnv, out: Writers): Promise<number> {
  const parsed = await subcommandArgs(parseLandArgs(argv), LAND_USAGE, out);
  if (typeof parsed === 'number') return parsed;
  if (parsed.resolve) return landResolving(parsed, env, out);
  let report: Awaited<ReturnType<ReturnType<typeof history>['land']>>;
  try {
    report = await history({ env, home: homedir() }).land(parsed.session, { action: parsed.action, agents: parsed.agents, ...(parsed.check !== undefined ? { check: parsed.check } : {}), env: new ToolEnv() });
  } catch (err) {
    if (!(err instanceof SessionBusyError)) throw err;
    out.stderr(`delegate: cannot land now: ${err.message}\n`);
    return 2;
  }
  if ('error' in report) {
    out.stderr(`delegate: cannot ${parsed.action}: ${report.error}\n`);
    return 2;
  }
  if (parsed.json) {
    await out.stdout(JSON.stringify({ type: 'land', action: parsed.action, session_id: parsed.session, workspace: report.workdir, outcomes: report.outcomes, ...(report.check ? { check: report.check } : {}) }) + '\n');
  } else {
    const lines = report.outcomes.map((o) => {
      const what = o.conflicts?.length
        ? o.conflicts.map((c) => `${c.path}: ${c.hunks.map((h) => `lines ${h.line}-${h.line + Math.max(0, h.lines - 1)}`).join(', ')} (with ${c.with.join(', ')})`).join('; ')
        : o.outcome === 'resolved'
          ? `by resolver ${o.resolvedBy ?? '?'}`
          : o.files.join(', ');
      return `${o.outcome.padEnd(12)} ${o.agentId}  ${what}${o.outcome === 'conflict' ? '  — nothing of it written' : ''}`;
    });
    await out.stdout(`${lines.join('\n')}\n`);
    const check = report.check;
    if (check && !check.ok) out.stderr(`delegate: the land check \`${check.command}\` failed on the combined changes${check.brokenBy ? `; the first to break it: ${check.brokenBy}` : ''}. Nothing landed. Its output:\n${check.output}\n`);
  }
  return report.outcomes.some((o) => o.outcome === 'conflict' || o.outcome === 'check_failed' || o.outcome === 'failed') ? 1 : 0;
}

/** `--resolve`: the session opened in its folder (a headless run's setup), landed, conflicts handed to resolvers. */
async function landResolving(parsed: Extract<Parsed, { kind: 'land' }>, env: NodeJS.ProcessEnv, out: Writers): Promise<number> {
  const events = await history({ env, home: homedir() }).read(parsed.session);
  const workdir = events?.find((e): e is Extract<typeof e, { type: 'agent_started' }> => e.type === 'agent_started' && e.parentId === null && e.cwd !== undefined)?.cwd;
  if (!workdir) {
    out.stderr(`delegate: cannot land: ${events ? 'the session does not record its workspace folder' : `no session "${parsed.session}"`}\n`);
    return 2;
  }
  const args = ['-p', '(land)', '--resume', parsed.session, '--cwd', workdir, ...(parsed.resolve?.mode ? ['--permission-mode', parsed.resolve.mode] : [])];
  const cli = parseCliArgs(args, workdir);
  if (cli.kind !== 'run') {
    out.stderr(`delegate: ${cli.kind === 'error' ? cli.message : 'bad arguments'}\n`);
    return 2;
  }
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  const { runCli } = await import('./run');
  try {
    return await runCli(cli.options, env, out, controller.signal, {
      instead: async (session) => {
        const done = await session.land({ ...(parsed.agents.length ? { agents: parsed.agents } : {}), resolve: true, ...(parsed.check !== undefined ? { check: parsed.check } : {}) }, controller.signal);
        if (parsed.json) await out.stdout(JSON.stringify({ type: 'land', action: 'land', session_id: parsed.session, workspace: workdir, outcomes: done.outcomes, lines: done.lines }) + '\n');
        else await out.stdout(`${done.lines.join('\n')}\n`);
        return done.error && done.outcomes.length === 0 ? 2 : done.unsettled ? 1 : 0;
      },
    });
  } finally {
    process.off('SIGINT', stop);
  }
}
