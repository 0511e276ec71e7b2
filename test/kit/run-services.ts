/**
 * Test wiring for the loop, one fake per port (loop/types.ts), so a test builds only the ports it uses:
 *
 *   fakeConfig({limits})  fakeOutputs()  fakeGate({hooks, permissions, approver})  recordingBus()
 *   makeRun(model, …)     all the ports as RunPorts (with fakeModels, testBaseTools and the session's real child
 *                         runs), for a test that runs the whole loop: real bus, hooks and loop; in-memory tools
 *                         and an allow-all, or scripted, policy
 */
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { EventBus, type DelegateEvent } from '../../src/core/events';
import type { ModelAccess, Outputs, RunConfig, RunLimits, RunPorts, Spawner } from '../../src/core/loop/types';
import type { ToolGate } from '../../src/core/loop/tool-gate';
import { runAgent } from '../../src/core/loop/loop';
import { HookRegistry } from '../../src/core/policy/hooks';
import type { Approver, PermissionChecker, PermissionVerdict, ToolCallRequest } from '../../src/core/policy/types';
import { ToolRegistry, type Tool, type ToolKind } from '../../src/core/tools/types';
import type { ModelPort } from '../../src/core/llm/types';
import { DEFAULT_LIMITS } from '../../src/core/loop/limits';
import { AgentRegistry } from '../../src/core/loop/agent-registry';
import { createChildRuns } from '../../src/core/delegation/child-runs';
import { createRunFeatures } from '../../src/core/session/run-features';
import { createToolGate } from '../../src/core/session/policy-gate';
import { tempDir } from './temp-dirs';

/** A tool that answers from a function: enough to drive the loop without touching the disk. */
export function fakeTool(name: string, kind: ToolKind, run: (input: Record<string, unknown>) => string | Promise<string>): Tool<Record<string, unknown>> {
  return {
    name,
    kind,
    description: `fake ${name}`,
    inputSchema: { type: 'object', properties: {} },
    parse: (raw) => (raw && typeof raw === 'object' ? { ok: true, input: raw as Record<string, unknown> } : { ok: false, error: 'input must be an object' }),
    describe: (input) => ({ summary: JSON.stringify(input), paths: typeof input.path === 'string' ? [input.path] : [] }),
    execute: async (input) => ({ content: await run(input) }),
  };
}

export class RecordingPolicy implements PermissionChecker {
  readonly checked: ToolCallRequest[] = [];
  constructor(private readonly decide: (req: ToolCallRequest) => PermissionVerdict = () => ({ behavior: 'allow' })) {}
  async check(req: ToolCallRequest): Promise<PermissionVerdict> {
    this.checked.push(req);
    return this.decide(req);
  }
  rememberForSession(): void {}
  rememberForAgent(): void {}
}

/** read_file and bash that answer from their input. */
function testBaseTools(): ToolRegistry {
  return new ToolRegistry([fakeTool('read_file', 'read', (i) => `contents of ${String(i.path)}`), fakeTool('bash', 'exec', (i) => `ran ${String(i.command)}`)]);
}

/** A bus whose events the test reads. */
export function recordingBus(): { bus: EventBus; events: DelegateEvent[] } {
  const events: DelegateEvent[] = [];
  const bus = new EventBus('test-session');
  bus.subscribe((e) => {
    events.push(e);
  });
  return { bus, events };
}

/** ModelAccess on `model` as `test-model`: 1,000 max tokens, prompt caching on, no server-side web search. */
function fakeModels(model: ModelPort): ModelAccess {
  return { model, modelId: 'test-model', maxTokensFor: () => 1000, features: createRunFeatures(['prompt_cache']) };
}

/** The default limits (a copy the test may change), /tmp, a 200k window at 0.8. */
export function fakeConfig(limits: Partial<RunLimits> = {}): RunConfig {
  return { workdir: '/tmp', limits: { ...DEFAULT_LIMITS, ...limits }, context: { window: 200_000, threshold: 0.8 } };
}

/** Outputs saved as files in a fresh folder (`dir`). */
export function fakeOutputs(): Outputs & { dir: string } {
  const dir = tempDir('delegate-out-');
  return {
    dir,
    saveFullOutput: async (id, content) => {
      const file = join(dir, `${id}.txt`);
      await writeFile(file, content);
      return file;
    },
  };
}

/** The parts of the ToolGate a test brings (hooks, a policy, an approver); an allow-all policy and a deny-all approver otherwise. */
export interface GateParts {
  hooks?: HookRegistry;
  permissions?: PermissionChecker;
  approver?: Approver;
}

export function fakeGate({ hooks = new HookRegistry(), permissions = new RecordingPolicy(), approver }: GateParts = {}): ToolGate {
  const denyAll: Approver = { ask: async () => ({ decision: 'deny', reason: 'no approver in this test' }) };
  return createToolGate({ hooks, permissions, approver: approver ?? denyAll });
}

export interface TestRun {
  ports: RunPorts;
  /** The tools the root's spec gets (what the children's specs are built from too). */
  baseTools: ToolRegistry;
  /** The hooks behind the ToolGate and the child runs: a test registers its handlers here. */
  hooks: HookRegistry;
  events: DelegateEvent[];
  outputDir: string;
}

export interface TestPorts extends GateParts {
  baseTools?: ToolRegistry;
  limits?: Partial<RunLimits>;
}

/** Every port, for a test that runs the loop with subagents: the session's real child runs over these fakes. */
export function makeRun(model: ModelPort, { baseTools = testBaseTools(), limits, ...gate }: TestPorts = {}): TestRun {
  const hooks = gate.hooks ?? new HookRegistry();
  const { bus, events } = recordingBus();
  const outputs = fakeOutputs();
  const config = fakeConfig(limits);
  let n = 0;
  const spawner: Spawner = createChildRuns({
    run: (spec, signal) => runAgent(spec, ports, signal),
    bus,
    newAgentId: () => `sub${++n}`,
    config,
    baseTools: () => baseTools,
    hooks,
  });
  const ports: RunPorts = { models: fakeModels(model), spend: {}, outputs, config, gate: fakeGate({ ...gate, hooks }), spawner, bus, agents: new AgentRegistry() };
  return { ports, baseTools, hooks, events, outputDir: outputs.dir };
}
