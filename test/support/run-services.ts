/** Test wiring for the loop: real bus, hooks and loop; in-memory tools and an allow-all (or scripted) policy. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { EventBus, type DelegateEvent } from '../../src/core/events';
import type { RunServices } from '../../src/core/agent/types';
import { HookRegistry } from '../../src/core/policy/hooks';
import type { Approver, PermissionChecker, PermissionVerdict, ToolCallRequest } from '../../src/core/policy/types';
import { ToolRegistry, type Tool, type ToolKind } from '../../src/core/tools/types';
import type { ModelPort } from '../../src/core/llm/types';
import { DEFAULT_LIMITS } from '../../src/core/agent/limits';
import { AgentRegistry } from '../../src/core/agent/agent-registry';
import { createChildRuns } from '../../src/core/session/child-runs';
import { createRunFeatures } from '../../src/core/session/run-features';
import { createToolGate } from '../../src/core/session/tool-gate';

/** A tool that answers from a function: enough to drive the loop without touching the disk. */
export function fakeTool(name: string, kind: ToolKind, run: (input: Record<string, unknown>) => string | Promise<string>): Tool<Record<string, unknown>> {
  return {
    name,
    kind,
    description: `fake ${name}`,
    inputSchema: { type: 'object', properties: {} },
    parse: (raw) => (raw && typeof raw === 'object' ? { ok: true, input: raw as Record<string, unknown> } : { ok: false, error: 'input must be an object' }),
    paths: (input) => (typeof input.path === 'string' ? [input.path] : []),
    summarize: (input) => JSON.stringify(input),
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
}

export interface TestRun {
  services: RunServices;
  /** The hooks behind the services' ToolGate and child runs: a test registers its handlers here. */
  hooks: HookRegistry;
  events: DelegateEvent[];
  outputDir: string;
}

/** Services to override, and the parts of the ToolGate a test brings (hooks, a policy, an approver). */
export interface TestPorts extends Partial<RunServices> {
  hooks?: HookRegistry;
  permissions?: PermissionChecker;
  approver?: Approver;
}

export function makeServices(model: ModelPort, ports: TestPorts = {}): TestRun {
  const { hooks = new HookRegistry(), permissions = new RecordingPolicy(), approver: approverPort, ...overrides } = ports;
  const events: DelegateEvent[] = [];
  const bus = new EventBus('test-session');
  bus.subscribe((e) => {
    events.push(e);
  });
  const outputDir = mkdtempSync(join(tmpdir(), 'delegate-out-'));
  let n = 0;
  const denyAll: Approver = { ask: async () => ({ decision: 'deny', reason: 'no approver in this test' }) };
  const services: RunServices = {
    spawner: createChildRuns(() => services, { hooks }),
    // What a run without these settings had: prompt caching on, no server-side web search.
    features: createRunFeatures(['prompt_cache']),
    model,
    modelId: 'test-model',
    maxTokensFor: () => 1000,
    workdir: '/tmp',
    gate: createToolGate({ hooks, permissions, approver: approverPort ?? denyAll }),
    bus,
    limits: { ...DEFAULT_LIMITS },
    baseTools: new ToolRegistry([
      fakeTool('read_file', 'read', (i) => `contents of ${String(i.path)}`),
      fakeTool('bash', 'exec', (i) => `ran ${String(i.command)}`),
    ]),
    saveFullOutput: async (id, content) => {
      const file = join(outputDir, `${id}.txt`);
      await writeFile(file, content);
      return file;
    },
    newAgentId: () => `sub${++n}`,
    context: { window: 200_000, threshold: 0.8 },
    agents: new AgentRegistry(),
    ...overrides,
  };
  return { services, hooks, events, outputDir };
}
