/**
 * Expand/collapse policy and memory. A task is open while it runs and closes when it ends,
 * unless the user toggled it (or was reading inside it when it ended: renderer.ts): user choices win,
 * are saved with `setState` and survive a reload (the host re-sends a snapshot; the rows re-open from
 * the saved choices) and a switch to another session and back (node ids never repeat across sessions,
 * so the choices of sessions not shown are kept too, the newest OTHER_CHOICES of them). It also keeps the files
 * the user kept in the changes bar.
 */
import type { PromptHandoff } from '../src/protocol';
import { loadState, saveState, type PersistedState } from './vscode-api';

/** Choices kept for nodes the open session does not have (other sessions'). */
const OTHER_CHOICES = 500;
/** Files kept in the changes bar that are remembered (the newest; an old session's bar may show again). */
const KEPT_FILES = 500;

export class Expansion {
  private readonly state: PersistedState;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.state = loadState();
  }

  /** The user's choice for `id`, else the default. */
  isOpen(id: string, byDefault: boolean): boolean {
    return this.state.expanded[id] ?? byDefault;
  }

  /** The ids the user opened (the only calls and thinking rows that are open: they are closed by default). */
  *openKeys(): Iterable<string> {
    for (const id in this.state.expanded) if (this.state.expanded[id] === true) yield id;
  }

  hasChoice(id: string): boolean {
    return id in this.state.expanded;
  }

  setChoice(id: string, open: boolean): void {
    // Newest last (retain drops the oldest of other sessions' choices first).
    Reflect.deleteProperty(this.state.expanded, id);
    this.state.expanded[id] = open;
    this.save();
  }

  /** Keeps the choices of a new snapshot's nodes, and the newest OTHER_CHOICES others (keeps the saved state small). */
  retain(keep: (id: string) => boolean): void {
    const entries = Object.entries(this.state.expanded);
    const others = entries.filter(([id]) => !keep(id));
    const dropped = new Set(others.slice(0, Math.max(0, others.length - OTHER_CHOICES)).map(([id]) => id));
    const kept = entries.filter(([id]) => !dropped.has(id));
    if (kept.length === entries.length) return;
    this.state.expanded = Object.fromEntries(kept);
    this.save();
  }

  /** The files the user kept in the changes bar (run-changes.ts keptKey): saved, so a reload does not bring them back. */
  keptFiles(): ReadonlySet<string> {
    return new Set(this.state.kept ?? []);
  }

  keepFiles(keys: readonly string[]): void {
    const all = [...(this.state.kept ?? []).filter((k) => !keys.includes(k)), ...keys];
    this.state.kept = all.slice(Math.max(0, all.length - KEPT_FILES));
    this.save();
  }

  get draft(): string {
    return this.state.draft;
  }

  set draft(text: string) {
    this.state.draft = text;
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.save(), 300);
  }

  get draftHandoff(): PromptHandoff | undefined {
    return this.state.draftHandoff;
  }

  /** Saved at once: it changes on a press or a Send, not on every key. */
  set draftHandoff(handoff: PromptHandoff | undefined) {
    if (handoff) this.state.draftHandoff = handoff;
    else delete this.state.draftHandoff;
    this.save();
  }

  private save(): void {
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    saveState(this.state);
  }
}
