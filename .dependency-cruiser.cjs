/**
 * The core's layers as rules (issue 14; rooms: issue 26): `npm run lint:layers` (dependency-cruiser) checks src/ against them.
 *
 *   hosts  src/cli/ src/vscode/ src/acp/ src/action/ src/protocol.ts
 *     │  import only ▼ the faces: core/session/index.ts (a session), session/history.ts (sessions on disk),
 *     │                 session/ports.ts (what a host implements), session/model-port.ts (the model port's types);
 *     │                 session/model.ts, session/sandbox-probe.ts and session/process-environment.ts (pieces left
 *     │                 out so they load apart); core/events.ts, core/vocabulary.ts. Never hooks, store, processes.
 *   core/session/      the composition root (builds every collaborator once)
 *     │
 *   core/delegation/   children: child-runs.ts runs one (new, fork, resumed) through the `run` the session gives it;
 *     │   ▲            the directory, pages and records of a session's subagents
 *     │   │ the tools and ports an agent delegates with (task, task_output, send_message, read_subagent,
 *     │   │ the SubagentDirectory and FanoutGate ports): the loop builds them into an agent's tools
 *   core/loop/         the loop over narrow ports (may read mechanisms' contract files, never their runtime)
 *     │
 *   mechanisms         tools/ llm/ policy/ changes/ sandbox/ mcp/ store/ hooks/ instructions/ agent-files/ secrets/
 *     │                report/: each imports the foundation and only the ports it declares or implements (PORTS below)
 *   foundation         core/vocabulary.ts (imports nothing of core), core/events.ts, core/errors.ts, core/shown-text.ts
 *
 * Type-only imports count everywhere (tsPreCompilationDeps: true): the circles issue 14 names are type-level
 * (events.ts ↔ llm/types.ts ↔ tools/types.ts), and a type import decides what a module can be compiled and
 * understood without just as much as a value import does.
 *
 * Not expressible here (left to review): "narrow ports" (that a module reads 2 members of an interface, not 25),
 * "nothing assigned into a shared object after construction", and whether an allowed import is used as a port
 * or as a convenience.
 */
const MECHANISMS = ['tools', 'llm', 'policy', 'changes', 'sandbox', 'mcp', 'store', 'hooks', 'instructions', 'agent-files', 'secrets', 'report'];

/** Everyone in core may import these: the run-wide words, the event union and bus, the error helpers, how harness lines show names. */
const FOUNDATION = '^src/core/(vocabulary|events|errors|shown-text)\\.ts$';

/**
 * Contract files of mechanisms that the loop (core/loop/) and the delegation tools may read: types and classes they
 * run over, no runtime wiring (report-check.ts: the unverified claims a result carries).
 */
const CONTRACTS = '^src/core/(llm|tools|policy|changes)/types\\.ts$|^src/core/agent-files/agent-definition\\.ts$|^src/core/report/report-check\\.ts$';

/**
 * core/delegation/ in two halves. What an agent delegates with, which the loop builds into an agent's tools
 * (run-state.ts) and runs over (types.ts, tool-executor.ts): the tools, the background children, the ports.
 */
const DELEGATION_TOOLS = '^src/core/delegation/(task-tool|send-message-tool|read-subagent-tool|background|child-tools|child-port|fanout-gate)\\.ts$';

/** What the rest of delegation (running children, their records and pages) reads of the loop: its contract, not runAgent. */
const LOOP_CONTRACTS = '^src/core/loop/(types|prompts|budget|agent-registry)\\.ts$';

/** The one place that builds the environment of what an agent or a repository runs (credentials withheld). */
const TOOL_ENV = '^src/core/secrets/tool-env\\.ts$';

/**
 * Cross-mechanism imports allowed: a port the importer implements, or a contract it consumes.
 * Anything not listed here (and not FOUNDATION or the mechanism's own folder) is a violation.
 */
const PORTS = {
  // ToolSchema: the model's contract for a tool's declaration (type-only; llm/ never imports tools/).
  tools: ['^src/core/llm/types\\.ts$', TOOL_ENV],
  llm: [],
  // ToolCallRequest carries the tool's kind; tool rules match tool names; permissions confine paths and
  // judge private hosts the way the tools do (one definition of "inside the workspace", "a private address").
  policy: ['^src/core/tools/(types|tool-names|path-confinement|private-address)\\.ts$'],
  // The change tracker implements tools' FileTracker and wraps the bash tool; it shares the file tools' primitives,
  // and reads a command the way the bash deny list does (the shell parser) to tell a look from a change.
  changes: ['^src/core/tools/(types|file-tracker|bash|path-locks|text-encoding|file-access|node-file-ops|path-confinement)\\.ts$', '^src/core/policy/shell-parse\\.ts$', TOOL_ENV],
  // The sandbox implements tools/bash's CommandLauncher, holds the protected paths the policy lists, and tells the
  // process's watchdog of the placeholders it makes (removed if Delegate is killed).
  sandbox: ['^src/core/tools/(bash|group-watchdog)\\.ts$', '^src/core/policy/protected-paths\\.ts$', TOOL_ENV],
  // MCP servers' tools implement Tool; their processes join the run's process groups.
  mcp: ['^src/core/tools/(types|process-groups)\\.ts$', TOOL_ENV],
  store: [],
  // Command hooks implement policy/hooks' handlers, see tool names and kinds, run in process groups.
  hooks: ['^src/core/policy/(hooks|types)\\.ts$', '^src/core/tools/(types|tool-names|process-groups)\\.ts$', TOOL_ENV],
  instructions: [],
  // Agent files name tools (`tools:` lists); an agent's body is cut as project instructions are.
  'agent-files': ['^src/core/tools/tool-names\\.ts$', '^src/core/instructions/instruction-cut\\.ts$'],
  // Credentials: what commands may not see, and the process's own environment block. Imports nothing of core.
  secrets: [],
  // A child's report held to its record: the calls (tool kinds and outputs) and the change manifest.
  report: ['^src/core/(tools|changes)/types\\.ts$'],
};

const HOSTS = '^src/(cli|vscode|acp|action)/|^src/protocol\\.ts$';
/** The hosts' entry points: the faces (session, history, ports, model port), three lazily loaded parts, the events and the vocabulary. */
const FACE = '^src/core/(session/(index|history|ports|model-port|model|sandbox-probe|process-environment)|events|vocabulary)\\.ts$';
const VSCODE_API = '^vscode$|(^|/)node_modules/@types/vscode/';

const mechanismRules = MECHANISMS.map((name) => ({
  name: `mechanism-${name}`,
  comment: `core/${name}/ imports only the foundation and the ports it declares or implements (${PORTS[name].join(', ') || 'none'}).`,
  severity: 'error',
  from: { path: `^src/core/${name}/` },
  to: { path: '^src/core/', pathNot: [`^src/core/${name}/`, FOUNDATION, ...PORTS[name]] },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle in src/, type-only imports included.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-not-vscode',
      comment: 'The core and the view-model run outside the editor (CLI, webview): they never import vscode.',
      severity: 'error',
      from: { path: '^src/(core|view-model)/' },
      to: { path: VSCODE_API },
    },
    {
      name: 'core-not-hosts',
      comment: 'The core never imports a host or the view-model.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: `${HOSTS}|^src/view-model/` },
    },
    {
      name: 'hosts-only-face',
      comment: 'Hosts import from the core only its faces (session/index, history, ports, model-port; model, sandbox-probe, process-environment), the events and the vocabulary.',
      severity: 'error',
      from: { path: HOSTS },
      to: { path: '^src/core/', pathNot: FACE },
    },
    {
      name: 'vocabulary-imports-nothing',
      comment: 'core/vocabulary.ts holds words every layer shares: it imports nothing of src/.',
      severity: 'error',
      from: { path: '^src/core/vocabulary\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'events-below-mechanisms',
      comment: 'core/events.ts imports only the vocabulary and, for its payloads, the contract files of llm/, tools/, changes/.',
      severity: 'error',
      from: { path: '^src/core/events\\.ts$' },
      to: { path: '^src/', pathNot: ['^src/core/vocabulary\\.ts$', '^src/core/(llm|tools|changes)/types\\.ts$'] },
    },
    {
      name: 'only-hosts-above-session',
      comment: 'Nothing in the core imports the composition root (core/session*): it sits on top.',
      severity: 'error',
      from: { path: '^src/core/', pathNot: '^src/core/session(/|[.-])' },
      to: { path: '^src/core/session(/|[.-])' },
    },
    {
      name: 'loop-over-ports',
      comment: 'core/loop/ reads mechanisms only through their contract files; the session builds and hands in the rest.',
      severity: 'error',
      from: { path: '^src/core/loop/' },
      to: { path: `^src/core/(${MECHANISMS.join('|')})/`, pathNot: CONTRACTS },
    },
    {
      name: 'loop-builds-delegation-tools',
      comment: "core/loop/ imports of delegation only the tools and ports an agent delegates with; never what runs a child (that runs the loop: the session hands it `run`).",
      severity: 'error',
      from: { path: '^src/core/loop/' },
      to: { path: '^src/core/delegation/', pathNot: DELEGATION_TOOLS },
    },
    {
      name: 'delegation-tools-as-loop',
      comment: 'The delegation tools run inside the loop: they read mechanisms through contract files (and the report guard), and nothing of delegation that runs children.',
      severity: 'error',
      from: { path: DELEGATION_TOOLS },
      to: { path: `^src/core/delegation/|^src/core/(${MECHANISMS.join('|')})/`, pathNot: [DELEGATION_TOOLS, CONTRACTS, '^src/core/report/report-guard\\.ts$'] },
    },
    {
      name: 'delegation-over-loop-contract',
      comment: "core/delegation/ reads the loop's contract (types, prompts, budgets, the running agents); a child runs through the `run` the session gives, never runAgent.",
      severity: 'error',
      from: { path: '^src/core/delegation/' },
      to: { path: '^src/core/loop/', pathNot: LOOP_CONTRACTS },
    },
    {
      name: 'action-spawns-the-cli',
      comment: "The GitHub Action (src/action/) runs the built CLI as a process: of the CLI it imports only its JSON result's type (cli/output.ts, type-only).",
      severity: 'error',
      from: { path: '^src/action/' },
      to: { path: '^src/(cli|vscode|acp|view-model)/|^src/protocol\\.ts$', pathNot: '^src/cli/output\\.ts$' },
    },
    {
      name: 'action-cli-types-only',
      comment: 'The action reads the CLI\'s result type, never its code (the bundle holds none of the CLI).',
      severity: 'error',
      from: { path: '^src/action/' },
      to: { path: '^src/cli/output\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    ...mechanismRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
