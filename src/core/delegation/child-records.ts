/**
 * The session's subagents by id and name, finished ones too: what send_message, read_subagent and task's
 * `name` look up (the SubagentDirectory of child-port.ts is built over it in subagent-directory.ts).
 *
 *   bus ──agent_started / agent_finished──▶ entries (status, result, name, segments, how it started)
 *   resumed session: replay.ts indexes the transcript the same way (indexChildren) ──▶ the same entries
 *   a child's conversation and calls ──▶ read on demand from its transcript file (store.agentFile), not kept here
 */
import type { DelegateEvent, EventOf } from '../events';
import type { ChildEntry } from './child-port';
import { readAgentEvents } from '../store/transcript-reader';

/** An entry and the agent_started that first started it (what a resume rebuilds its spec from). */
export interface ChildRecord extends ChildEntry {
  started: EventOf<'agent_started'>;
}

const STOPPED_BY_USER = 'stopped by the user';

/** Folds one event into the records (both the live bus and a transcript's replay go through it). */
function observeChild(records: Map<string, ChildRecord>, e: DelegateEvent): void {
  if (e.parentId === null) return;
  if (e.type === 'agent_started') {
    const known = records.get(e.agentId);
    if (known) {
      known.status = 'running';
      known.segments = e.segment ?? known.segments + 1;
      return;
    }
    records.set(e.agentId, {
      id: e.agentId,
      parentId: e.parentId,
      ...(e.name ? { name: e.name } : {}),
      description: e.description ?? e.agentId,
      status: 'running',
      stoppedByUser: false,
      fork: e.forkedFrom !== undefined,
      result: '',
      segments: e.segment ?? 1,
      started: e,
    });
  } else if (e.type === 'agent_finished') {
    const known = records.get(e.agentId);
    if (!known) return;
    known.status = e.status;
    known.result = e.result;
    known.stoppedByUser = e.status === 'cancelled' && e.error === STOPPED_BY_USER;
  }
}

/** A transcript's subagents, as a resumed session starts with them (one that never recorded its end was interrupted). */
export function indexChildren(events: readonly DelegateEvent[]): ChildRecord[] {
  const records = new Map<string, ChildRecord>();
  for (const e of events) observeChild(records, e);
  for (const r of records.values()) if (r.status === 'running') r.status = 'cancelled';
  return [...records.values()];
}

export class ChildRecords {
  private readonly records = new Map<string, ChildRecord>();
  private readonly names = new Map<string, string>();

  constructor(
    private readonly agentFile: (agentId: string) => string,
    seed: readonly ChildRecord[] = [],
  ) {
    for (const r of seed) this.add(r);
  }

  /** The bus listener: keeps the entries as children start and end. */
  readonly listener = (e: DelegateEvent): void => {
    observeChild(this.records, e);
    const r = e.type === 'agent_started' ? this.records.get(e.agentId) : undefined;
    if (r && e.type === 'agent_started' && e.name) this.names.set(e.name, r.id);
  };

  find(ref: string): ChildRecord | undefined {
    const key = ref.trim();
    return this.records.get(key) ?? this.records.get(this.names.get(key) ?? '');
  }

  childrenOf(agentId: string): ChildRecord[] {
    return [...this.records.values()].filter((r) => r.parentId === agentId);
  }

  claimName(name: string, agentId: string): string | undefined {
    const holder = this.names.get(name);
    if (holder !== undefined && holder !== agentId) {
      return `a subagent named "${name}" already exists in this session: ${holder} (${this.records.get(holder)?.description ?? 'starting'}); give this one another name, or message that one with send_message{to: "${holder}"}`;
    }
    if (this.records.has(name) && name !== agentId) return `"${name}" is already a subagent's id in this session: choose another name`;
    this.names.set(name, agentId);
    return undefined;
  }

  /** The child's own events, from its transcript file (complete up to the last event the bus delivered). */
  events(agentId: string): Promise<DelegateEvent[]> {
    return readAgentEvents(this.agentFile(agentId));
  }

  private add(r: ChildRecord): void {
    this.records.set(r.id, { ...r });
    if (r.name) this.names.set(r.name, r.id);
  }
}
