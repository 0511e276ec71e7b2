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
 *     │                report/ isolation/: each imports the foundation and only the ports it declares or implements (PORTS below)
 *   foundation         core/vocabulary.ts (imports nothing of core), core/events.ts, core/errors.ts, core/shown-text.ts, core/crypto-when-used.ts
 *
 * Type-only imports count everywhere (tsPreCompilationDeps: true): the circles issue 14 names are type-level
 * (events.ts ↔ llm/types.ts ↔ tools/types.ts), and a type import decides what a module can be compiled and
 * understood without just as much as a value import does.
 *
 * webview/ and test/ (issue 26): the panel's browser code imports only the view-model, the host↔webview protocol and the
 * vocabulary; src/ imports no test code; tests reach the core through the test kit (test/kit/) or the faces, and the
 * suites that run the built CLI or the editor import no source — TEST_EXCEPTIONS lists, with why, the imports that do
 * otherwise today. `npm run lint:layers` cruises src/, webview/ and test/.
 *
 * Not expressible here (left to review): "narrow ports" (that a module reads 2 members of an interface, not 25),
 * "nothing assigned into a shared object after construction", and whether an allowed import is used as a port
 * or as a convenience.
 */
const MECHANISMS = ['tools', 'llm', 'policy', 'changes', 'sandbox', 'mcp', 'store', 'hooks', 'instructions', 'agent-files', 'secrets', 'report', 'isolation', 'skills'];

/** Everyone in core may import these: the run-wide words, the event union and bus, the error helpers, how harness lines show names. */
const FOUNDATION = '^src/core/(vocabulary|events|tool-call-record|errors|shown-text|crypto-when-used)\\.ts$';

/**
 * Contract files of mechanisms that the loop (core/loop/) and the delegation tools may read: types and classes they
 * run over, no runtime wiring (report-check.ts: the unverified claims a result carries).
 */
const CONTRACTS = '^src/core/(llm|tools|policy|changes)/types\\.ts$|^src/core/agent-files/agent-definition\\.ts$|^src/core/report/report-check\\.ts$';

/**
 * core/delegation/ in two halves. What an agent delegates with, which the loop builds into an agent's tools
 * (run-state.ts) and runs over (types.ts, tool-executor.ts): the tools, the background children, the ports.
 */
const DELEGATION_TOOLS = '^src/core/delegation/(task-tool|send-message-tool|read-subagent-tool|background|child-tools|child-port|fanout-gate|land-tool|steward-port)\\.ts$';

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
  // Agent Skills: SKILL.md's front matter read as agent files' is, a body cut as instructions are, the `skill` tool
  // (a Tool) reading files confined to the skill's folder.
  // tool-rules.ts: a skill's allowed-tools are written as tool rules (one splitter for both).
  skills: ['^src/core/policy/tool-rules\\.ts$', '^src/core/agent-files/(front-matter|agent-definition)\\.ts$', '^src/core/instructions/instruction-cut\\.ts$', '^src/core/tools/(types|path-confinement|text-encoding)\\.ts$'],
  // Credentials: what commands may not see, and the process's own environment block. Imports nothing of core.
  secrets: [],
  // A child's report held to its record: the calls (tool kinds and outputs) and the change manifest.
  report: ['^src/core/(tools|changes)/types\\.ts$'],
  // Subagents' worktrees and landing: git run as the command watch runs it (hardened), checks with a command's environment.
  isolation: ['^src/core/changes/git-workspace\\.ts$', TOOL_ENV],
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

/** The faces tests reach the core through (besides the kit): the hosts' face and its lazily loaded parts, events, vocabulary. */
const TEST_FACES = FACE;

/**
 * Imports of source that the rules below would refuse, as they are today, each with why: a test of one module that is
 * not behind a face imports that module (a unit test), or a check needs the product's own answer.
 */
const TEST_EXCEPTIONS = [
  { rule: 'suites-run-the-product', from: '^test/cli/sandbox(-protected-paths)?\\.test\\.ts$', to: '^src/core/sandbox/probe\\.ts$',
    why: 'skips the sandbox tests where bubblewrap cannot run, by the probe the CLI itself asks' },
  { rule: 'suites-run-the-product', from: '^test/e2e/panel\\.ts$', to: '^src/view-model/session-view\\.ts$',
    why: "the task status words the panel shows, as a type of the page helpers" },
  { rule: 'suites-run-the-product', from: '^test/acp/tool-kinds\\.test\\.ts$', to: '^src/acp/tool-kinds\\.ts$',
    why: "a unit test of how the ACP host names tools to a client" },
  { rule: 'suites-run-the-product', from: '^test/action/summary\\.test\\.ts$', to: '^src/action/(summary|inputs)\\.ts$|^src/cli/output\\.ts$',
    why: "unit tests of the action's job summary and inputs, over the CLI's result type" },
  { rule: 'suites-run-the-product', from: '^test/fixtures/report-corpus/', to: '^src/core/report/report-check\\.ts$|^src/core/changes/(read-only-command|types)\\.ts$',
    why: "the report corpus scores the product's report check on recorded reports (the bench reads it too)" },
  { rule: 'host-tests-through-faces', from: '^test/webview/changes\\.test\\.ts$', to: '^src/core/changes/stale-guard\\.ts$',
    why: 'the panel shows the refusal of a stale or unread write in the words the core gives it' },
  { rule: 'host-tests-through-faces', from: '^test/webview/inline-diff\\.test\\.ts$', to: '^src/core/changes/line-diff\\.ts$',
    why: "a change's diff as the core makes it, drawn inline" },
  { rule: 'host-tests-through-faces', from: '^test/vscode/lm-model\\.test\\.ts$', to: '^src/core/loop/prompts\\.ts$',
    why: "the note a forced last turn carries, on the editor's language-model path" },
  { rule: 'host-tests-through-faces', from: '^test/vscode/proxy\\.test\\.ts$', to: '^src/core/llm/http-fetch\\.ts$',
    why: 'the HTTP client the editor builds, driven through a proxy (its HttpFetch type is not on the face)' },
  { rule: 'host-tests-through-faces', from: '^test/vscode-units/approval-text\\.test\\.ts$', to: '^src/core/policy/permission-policy\\.ts$',
    why: "the approval texts are worded from the policy's verdicts" },
  { rule: 'core-tests-not-hosts', from: '^test/core/tools/web-fetch-guard\\.test\\.ts$', to: '^src/cli/headless-approver\\.ts$',
    why: "web_fetch's guard answered as the CLI answers it" },
  { rule: 'core-tests-not-hosts', from: '^test/core/settings/settings-doc\\.test\\.ts$', to: '^src/cli/args\\.ts$',
    why: "the settings table's flags checked against the CLI's --help text" },
];

/** An area's rule, and one rule per exception of it (the same refusal, less what TEST_EXCEPTIONS lets through). */
function areaRule(name, comment, fromPath, to) {
  const own = TEST_EXCEPTIONS.filter((e) => e.rule === name);
  return [
    { name, comment, severity: 'error', from: { path: fromPath, pathNot: own.map((e) => e.from) }, to },
    ...own.map((e) => ({
      name,
      comment: `${comment} Excepted here: ${e.why}.`,
      severity: 'error',
      from: { path: e.from },
      to: { ...to, pathNot: [...[to.pathNot ?? []].flat(), e.to] },
    })),
  ];
}

const webviewAndTestRules = [
  {
    name: 'src-ships-no-tests',
    comment: 'src/ is what ships: it imports nothing of test/ (the scripted model lives in test/kit/).',
    severity: 'error',
    from: { path: '^src/' },
    to: { path: '^test/' },
  },
  {
    name: 'webview-over-the-view-model',
    comment: "The panel's browser code (webview/) imports of src/ only the view-model, the host↔webview protocol and the vocabulary.",
    severity: 'error',
    from: { path: '^webview/' },
    to: { path: '^src/', pathNot: '^src/(view-model/|protocol\\.ts$|core/vocabulary\\.ts$)' },
  },
  {
    name: 'webview-in-the-browser',
    comment: 'webview/ runs in the panel\'s browser: no Node built-in, no vscode.',
    severity: 'error',
    from: { path: '^webview/' },
    to: { dependencyTypes: ['core'] },
  },
  {
    name: 'webview-not-vscode',
    comment: 'webview/ runs in the panel\'s browser: it talks to the editor through the protocol only.',
    severity: 'error',
    from: { path: '^webview/' },
    to: { path: VSCODE_API },
  },
  {
    name: 'src-not-webview',
    comment: 'The host loads the panel as a bundle (dist/webview): nothing in src/ imports webview/.',
    severity: 'error',
    from: { path: '^src/' },
    to: { path: '^webview/' },
  },
  {
    name: 'no-test-file-imported',
    comment: 'A test file is never imported (mocha would register its tests again): shared helpers go to test/kit/. The extension host\'s entry (test/vscode/index.ts) loads its bundled suites.',
    severity: 'error',
    from: { path: '^test/', pathNot: '^test/vscode/index\\.ts$' },
    to: { path: '\\.test\\.ts$' },
  },
  ...areaRule(
    'suites-run-the-product',
    'Suites that run the built CLI, the ACP agent, the action or the editor (test/cli, acp, action, e2e, vscode-smoke) and the local servers (test/fixtures) import no source.',
    '^test/(cli|acp|action|e2e|vscode-smoke|fixtures)/',
    { path: '^src/' },
  ),
  ...areaRule(
    'host-tests-through-faces',
    "Tests of the hosts and the panel (test/vscode, vscode-units, webview) reach the core through the kit or the faces (the session face, events, vocabulary); the view-model, the protocol and the host's own modules are theirs to test.",
    '^test/(vscode|vscode-units|webview)/',
    { path: '^src/core/', pathNot: TEST_FACES },
  ),
  ...areaRule(
    'core-tests-not-hosts',
    "The core's tests (test/core) test the core: no host (src/cli, vscode, acp, action).",
    '^test/core/',
    { path: '^src/(cli|vscode|acp|action)/' },
  ),
];

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
      comment: 'core/events.ts imports only the vocabulary and, for its payloads, the contract files of llm/, tools/, changes/, isolation/.',
      severity: 'error',
      from: { path: '^src/core/events\\.ts$' },
      to: { path: '^src/', pathNot: ['^src/core/(vocabulary|tool-call-record)\\.ts$', '^src/core/(llm|tools|changes|isolation)/types\\.ts$'] },
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
    ...webviewAndTestRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
