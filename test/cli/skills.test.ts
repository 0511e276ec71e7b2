/**
 * Agent Skills through the built CLI, with real SKILL.md files from anthropics/skills and github/awesome-copilot
 * (test/fixtures/skill-collections, unchanged): the one-line list in the `skill` tool, the body loaded by a call,
 * allowed-tools pre-approving calls for the agent that loaded the skill (and only behind the folder's trust), broken
 * files warned about and skipped, and an agent file's `skills:` preloaded into its subagent's prompt.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentText, firstUserText, lastToolResults, reply, systemText, type RecordedRequest } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';
import { runInTerminal } from '../kit/terminal';

const COLLECTIONS = join(__dirname, '..', 'fixtures', 'skill-collections');
const ANTHROPIC = join(COLLECTIONS, 'anthropics-skills');
const COPILOT = join(COLLECTIONS, 'awesome-copilot');

const toolNames = (req: RecordedRequest | undefined): string[] => req?.body.tools?.map((t) => t.name) ?? [];
const skillTool = (req: RecordedRequest | undefined) => must(req?.body.tools?.find((t) => t.name === 'skill'));
const resultText = (req: RecordedRequest | undefined, i = 0): string => {
  const block = lastToolResults(must(req))[i];
  const content = block?.content as string | Parameters<typeof contentText>[0];
  return typeof content === 'string' ? content : contentText(content);
};

describe('delegate CLI: Agent Skills', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'delegate-skills-home-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const install = (from: string, to: string): void => cpSync(from, to, { recursive: true });
  const run = (args: string[], extra: string[] = []) =>
    runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--sandbox', 'off', ...args, ...extra], { env: cli.env({ HOME: home }) });

  it('skills from .claude/, .github/, .agents/ and ~/.claude/skills are one line each in the skill tool; a call loads the body, its folder and files', async () => {
    const w = cli.dirs.workdir;
    install(join(ANTHROPIC, 'skill-creator'), join(w, '.claude', 'skills', 'skill-creator'));
    install(join(COPILOT, 'git-commit'), join(w, '.github', 'skills', 'git-commit'));
    install(join(COPILOT, 'plantuml-ascii'), join(w, '.agents', 'skills', 'plantuml-ascii'));
    install(join(ANTHROPIC, 'webapp-testing'), join(home, '.claude', 'skills', 'webapp-testing'));
    cli.api.script(
      reply.toolUse([{ name: 'skill', input: { name: 'skill-creator' } }]),
      reply.toolUse([{ name: 'skill', input: { name: 'webapp-testing', file: 'LICENSE.txt' } }]),
      reply.text('done'),
    );
    const r = await run(['--output-format', 'stream-json', '--trust-folder']);
    assert.equal(r.code, 0, r.stderr);
    cli.api.assertAllConsumed();
    assert.equal(r.stderr, '', 'real skills load without a word');
    const [first, second, third] = cli.api.messageRequests();
    const tool = skillTool(first);
    const lines = String(tool.description).split('\n').filter((l) => l.startsWith('- '));
    assert.deepEqual(lines.map((l) => l.slice(2, l.indexOf(':'))), ['git-commit', 'plantuml-ascii', 'skill-creator', 'webapp-testing'], 'one line each, by name');
    assert.ok(lines.every((l) => !l.endsWith('…')), 'nothing written to the spec is cut');
    assert.match(String(tool.description), /- skill-creator: Create new skills, modify and improve existing skills/);
    assert.deepEqual((tool.input_schema as { properties: { name: { enum: string[] } } }).properties.name.enum, ['git-commit', 'plantuml-ascii', 'skill-creator', 'webapp-testing']);
    assert.doesNotMatch(JSON.stringify(first?.body), /Skill Creator\b.*A skill for creating new skills/, 'no body before the call');

    const loaded = resultText(second);
    assert.match(loaded, /^<skill_content name="skill-creator">\n# Skill Creator\n/);
    assert.doesNotMatch(loaded, /^name: skill-creator$/m, 'the front matter is not part of it');
    assert.match(loaded, new RegExp(`Skill folder: ${join(w, '.claude', 'skills', 'skill-creator').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `));
    assert.match(loaded, /^- references\/schemas\.md$/m, 'the files beside it are named, not read');
    assert.match(loaded, /read them with read_file \(paths like \.claude\/skills\/skill-creator\//);
    assert.match(resultText(third), /Apache License\s+Version 2\.0/, "a user skill's file, outside the workspace, read through the tool");

    const calls = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.type === 'tool_started' && e.name === 'skill');
    assert.deepEqual(calls.map((c) => [c.summary, c.paths]), [['skill-creator', ['.claude/skills/skill-creator/SKILL.md']], ['webapp-testing · LICENSE.txt', []]], 'stream-json shows each skill being loaded');
  });

  it("allowed-tools pre-approve the tool for the agent that loaded the skill only, and only in a trusted folder", async () => {
    install(join(COPILOT, 'git-commit'), join(cli.dirs.workdir, '.claude', 'skills', 'git-commit'));
    const script = () =>
      cli.api.route([
        { name: 'child', match: isChild, replies: [reply.toolUse([{ name: 'bash', input: { command: 'echo CHILD-RAN' } }]), reply.text('child done')] },
        {
          name: 'parent',
          match: () => true,
          replies: [
            reply.toolUse([{ name: 'bash', input: { command: 'echo BEFORE' } }]),
            reply.toolUse([{ name: 'skill', input: { name: 'git-commit' } }]),
            reply.toolUse([{ name: 'bash', input: { command: 'echo AFTER-RAN' } }]),
            reply.toolUse([{ name: 'task', input: { prompt: 'run echo', description: 'child' } }]),
            reply.text('done'),
          ],
        },
      ]);
    script();
    const trusted = await run(['--trust-folder']);
    assert.equal(trusted.code, 0, trusted.stderr);
    cli.api.assertAllConsumed();
    const parent = cli.api.messageRequests().filter((q) => !isChild(q));
    assert.match(resultText(parent[1]), /^Permission denied: bash wants to run: echo BEFORE/, 'asked (and refused headless) before the skill is loaded');
    assert.match(resultText(parent[2]), /While this skill is active \(the rest of your run\) your calls of bash run without asking/);
    assert.match(resultText(parent[3]), /^AFTER-RAN$/m, 'ran without asking once loaded');
    const child = cli.api.messageRequests().filter(isChild);
    assert.match(resultText(child[1]), /^Permission denied: bash wants to run: echo CHILD-RAN/, "the parent's skill pre-approves nothing for its subagent");

    // The same repository, not trusted: the skill loads (its text), its allowed-tools do not apply, and one line says so.
    script();
    const untrusted = await run([]);
    assert.equal(untrusted.code, 0, untrusted.stderr);
    assert.match(untrusted.stderr, /this folder is not trusted, so the allowed-tools of the skill "git-commit" do not apply/);
    const again = cli.api.messageRequests().filter((q) => !isChild(q)).slice(parent.length);
    assert.match(resultText(again[2]), /Its allowed-tools \(bash\) do not apply: this folder is not trusted/);
    assert.match(resultText(again[3]), /^Permission denied: bash wants to run: echo AFTER-RAN/);
  });

  it('in a terminal: the trust question names what a project skill would let run without asking; yes applies it', async () => {
    install(join(COPILOT, 'plantuml-ascii'), join(cli.dirs.workdir, '.claude', 'skills', 'plantuml-ascii'));
    cli.api.script(
      reply.toolUse([{ name: 'skill', input: { name: 'plantuml-ascii' } }]),
      reply.toolUse([{ name: 'bash', input: { command: 'echo TERMINAL-RAN' } }]),
      reply.text('done'),
    );
    const yes = await runInTerminal(['-p', 'go', '--cwd', cli.dirs.workdir, '--sandbox', 'off'], { env: cli.env({ HOME: home }), answer: 'y\n' });
    assert.equal(yes.code, 0, yes.output);
    assert.match(yes.output, /^delegate: Do you trust the files in this folder\?$/m);
    assert.ok(yes.output.includes('.claude/skills/plantuml-ascii/SKILL.md: skill "plantuml-ascii" lets run without asking: Bash Write Read'), yes.output);
    assert.match(resultText(cli.api.messageRequests().at(-1)), /^TERMINAL-RAN$/m);
  });

  it('a resumed session: the skills its conversation loaded are active again', async () => {
    install(join(COPILOT, 'git-commit'), join(cli.dirs.workdir, '.claude', 'skills', 'git-commit'));
    cli.api.script(reply.toolUse([{ name: 'skill', input: { name: 'git-commit' } }]), reply.text('loaded'));
    const first = await run(['--trust-folder', '--output-format', 'json']);
    assert.equal(first.code, 0, first.stderr);
    const id = String(lastJsonLine(first.stdout).session_id);
    cli.api.script(reply.toolUse([{ name: 'bash', input: { command: 'echo RESUMED-RAN' } }]), reply.text('ran'));
    const again = await runDelegate(['--resume', id, '-p', 'commit', '--cwd', cli.dirs.workdir, '--sandbox', 'off', '--trust-folder'], { env: cli.env({ HOME: home }) });
    assert.equal(again.code, 0, again.stderr);
    cli.api.assertAllConsumed();
    assert.match(resultText(cli.api.messageRequests().at(-1)), /^RESUMED-RAN$/m);
    assert.doesNotMatch(resultText(cli.api.messageRequests().at(-1)), /Permission denied/);
  });

  it('a broken SKILL.md warns once and is skipped; the rest load; a real list of tools Delegate lacks is a warning', async () => {
    const dir = join(cli.dirs.workdir, '.claude', 'skills');
    install(join(COPILOT, 'git-commit'), join(dir, 'git-commit'));
    install(join(COPILOT, 'azure-role-selector'), join(dir, 'azure-role-selector'));
    install(join(COPILOT, 'make-repo-contribution'), join(dir, 'make-repo-contribution'));
    install(join(COPILOT, 'git-commit'), join(home, '.claude', 'skills', 'git-commit')); // shadowed by the project's
    install(join(ANTHROPIC, 'claude-api'), join(dir, 'claude-api'));
    mkdirSync(join(dir, 'no-front-matter'));
    writeFileSync(join(dir, 'no-front-matter', 'SKILL.md'), '# Just a heading\n');
    mkdirSync(join(dir, 'no-description'));
    writeFileSync(join(dir, 'no-description', 'SKILL.md'), '---\nname: no-description\n---\nBody.\n');
    mkdirSync(join(dir, 'a-pipe'));
    execFileSync('mkfifo', [join(dir, 'a-pipe', 'SKILL.md')]);
    // The spec's client guide's commonest case: a plain description holding ": " is not YAML; read line by line.
    mkdirSync(join(dir, 'colon'));
    writeFileSync(join(dir, 'colon', 'SKILL.md'), '---\nname: colon\ndescription: Use this skill when: the user asks about PDFs\nallowed-tools: Read\n---\nBody.\n');
    mkdirSync(join(dir, 'Bad Name'));
    writeFileSync(join(dir, 'Bad Name', 'SKILL.md'), '---\nname: Bad Name\ndescription: x\n---\n');
    cli.api.script(reply.text('one'), reply.text('two'));
    const r = await run(['--trust-folder', '--output-format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastJsonLine(r.stdout).result, 'one');
    const lines = r.stderr.trim().split('\n');
    const about = (name: string) => lines.filter((l) => l.includes(`/${name}/SKILL.md`));
    assert.match(about('no-front-matter').join('\n'), /^delegate: error: .*no-front-matter\/SKILL\.md:1: skipped: no YAML front matter/);
    assert.match(about('no-description').join('\n'), /^delegate: error: .*skipped: no `description`/);
    assert.match(about('a-pipe').join('\n'), /^delegate: error: .*skipped: cannot read it: not a regular file/);
    assert.match(about('Bad Name').join('\n'), /skipped: the name "Bad Name" is not one word/);
    assert.match(about('azure-role-selector').join('\n'), /allowed-tools: Delegate has no tool "Azure MCP\/documentation", "Azure MCP\/bicepschema", "Azure MCP\/extension_cli_generate", "Azure MCP\/get_bestpractices": they pre-approve nothing$/);
    assert.match(about('make-repo-contribution').join('\n'), /allowed-tools: Bash\(git:\*\), Bash\(gh issue:\*\), Bash\(gh pr:\*\): rules with content are not matched by content/);
    for (const name of ['no-front-matter', 'no-description', 'a-pipe', 'Bad Name', 'azure-role-selector', 'make-repo-contribution']) assert.equal(about(name).length, 1, `one line for ${name}:\n${r.stderr}`);
    assert.match(lines.filter((l) => l.includes(home)).join('\n'), /^delegate: warning: .*\/\.claude\/skills\/git-commit\/SKILL\.md: the skill "git-commit" is also in .*\/ws\/\.claude\/skills\/git-commit\/SKILL\.md, which wins \(project over user/);
    assert.match(about('colon').join('\n'), /^delegate: warning: .*colon\/SKILL\.md:3: invalid YAML \(.*\): read line by line instead/);
    assert.equal(about('colon').length, 1, r.stderr);
    assert.match(about('claude-api').join('\n'), /^delegate: warning: .*: its description is 1,068 characters: listed cut at 1,024, the spec's maximum$/);
    assert.equal(lines.length, 9, r.stderr);
    const tool = skillTool(cli.api.messageRequests()[0]);
    assert.deepEqual((tool.input_schema as { properties: { name: { enum: string[] } } }).properties.name.enum, ['azure-role-selector', 'claude-api', 'colon', 'git-commit', 'make-repo-contribution']);
    assert.match(String(tool.description), /^- claude-api: Reference for the Claude API .{900,}…$/m, 'listed on one line, cut at 1,024');
    assert.match(String(tool.description), /^- colon: Use this skill when: the user asks about PDFs$/m);
  });

  it('a hundred skills: past 20,000 characters of descriptions the rest are listed by name alone, with one warning', async () => {
    for (let i = 0; i < 100; i++) {
      const name = `s-${String(i).padStart(3, '0')}`;
      mkdirSync(join(home, '.claude', 'skills', name), { recursive: true });
      writeFileSync(join(home, '.claude', 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${'Use it for this. '.repeat(20)}\n---\nbody\n`);
    }
    cli.api.script(reply.text('ok'));
    const r = await run([]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr.trim(), /^delegate: warning: .*s-058\/SKILL\.md: 100 skills: their descriptions would cost every request too much, so the last 42 \(by name\) are listed without one$/);
    const lines = String(skillTool(cli.api.messageRequests()[0]).description).split('\n').filter((l) => l.startsWith('- '));
    assert.equal(lines.length, 100);
    assert.equal(lines.filter((l) => l.includes(':')).length, 58, '340 characters each: 58 fit in 20,000');
    assert.equal(lines.at(-1), '- s-099');
  });

  it('--disallowed-tools Skill: no skill tool, and no skill listed', async () => {
    install(join(COPILOT, 'git-commit'), join(cli.dirs.workdir, '.claude', 'skills', 'git-commit'));
    cli.api.script(reply.text('ok'));
    const r = await run(['--trust-folder', '--disallowed-tools', 'Skill']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!toolNames(cli.api.messageRequests()[0]).includes('skill'));
    assert.doesNotMatch(JSON.stringify(cli.api.messageRequests()[0]?.body), /git-commit/);
  });

  it('no skills: an agent file naming Skill (Claude Code\'s tool) loads without a warning, and gets no skill tool', async () => {
    mkdirSync(join(cli.dirs.workdir, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(cli.dirs.workdir, '.claude', 'agents', 'reader.md'), '---\nname: reader\ndescription: Reads.\ntools: Read, Skill\n---\nREADER\n');
    cli.api.route([
      { name: 'reader', match: isChild, replies: [reply.text('read')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse([{ name: 'task', input: { prompt: 'read', subagent_type: 'reader' } }]), reply.text('done')] },
    ]);
    const r = await run([]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(toolNames(cli.api.messageRequests().find(isChild)), ['read_file']);
  });

  it("an agent file's skills: are preloaded into its subagent's prompt (no skill tool), their allowed-tools apply to it; other subagents get the skill tool", async () => {
    const w = cli.dirs.workdir;
    install(join(COPILOT, 'git-commit'), join(w, '.claude', 'skills', 'git-commit'));
    install(join(COPILOT, 'plantuml-ascii'), join(w, '.claude', 'skills', 'plantuml-ascii'));
    mkdirSync(join(w, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(w, '.claude', 'agents', 'committer.md'), '---\nname: committer\ndescription: Commits changes.\nskills:\n  - git-commit\n  - not-a-skill\n---\nCOMMITTER-BODY\n');
    // Claude Code's name for the tool in a tools: list: no warning, and the agent gets it.
    writeFileSync(join(w, '.claude', 'agents', 'reader.md'), '---\nname: reader\ndescription: Reads with skills.\ntools: Read, Skill\n---\nREADER\n');
    cli.api.route([
      { name: 'committer', match: (q) => isChild(q) && firstUserText(q).includes('JOB-C'), replies: [reply.toolUse([{ name: 'bash', input: { command: 'echo COMMITTER-RAN' } }]), reply.text('committed')] },
      { name: 'general', match: (q) => isChild(q) && firstUserText(q).includes('JOB-G'), replies: [reply.text('looked')] },
      { name: 'reader', match: (q) => isChild(q) && firstUserText(q).includes('JOB-R'), replies: [reply.text('read')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'JOB-C: commit', subagent_type: 'committer' } },
            { name: 'task', input: { prompt: 'JOB-G: look' } },
            { name: 'task', input: { prompt: 'JOB-R: read', subagent_type: 'reader' } },
          ]),
          reply.text('done'),
        ],
      },
    ]);
    const r = await run(['--trust-folder', '--output-format', 'stream-json']);
    assert.equal(r.code, 0, r.stderr);
    cli.api.assertAllConsumed();
    assert.match(r.stderr.trim(), /^delegate: warning: .*committer\.md: skills: no skill "not-a-skill" \(skills: git-commit, plantuml-ascii\): it runs without it$/);
    const notices = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.type === 'notice' && e.level === 'info');
    assert.equal(notices.length, 1, 'stream-json says which skills the subagent starts with');
    assert.match(String(notices[0]?.text), /^subagent [0-9a-f]+ \(committer\) starts with its skills loaded: git-commit$/);
    const children = cli.api.messageRequests().filter(isChild);
    const committer = children.filter((q) => firstUserText(q).includes('JOB-C'));
    const general = must(children.find((q) => firstUserText(q).includes('JOB-G')));
    const system = systemText(must(committer[0]));
    assert.match(system, /COMMITTER-BODY[\s\S]*<skill_content name="git-commit">\n# Git Commit with Conventional Commits\n/, 'the body, after its own prompt');
    assert.doesNotMatch(system, /plantuml/i, 'only the skills it lists');
    assert.ok(!toolNames(committer[0]).includes('skill'), 'it has its skills: no skill tool');
    assert.match(resultText(committer[1]), /^COMMITTER-RAN$/m, "git-commit's allowed-tools (Bash) apply to it");
    assert.ok(toolNames(general).includes('skill'), 'a subagent without skills: gets every skill, as the parent');
    assert.doesNotMatch(systemText(general), /skill_content/);
    assert.deepEqual(toolNames(children.find((q) => firstUserText(q).includes('JOB-R'))), ['read_file', 'skill'], '`tools: Read, Skill`: Claude Code\'s name for the tool');
  });
});
