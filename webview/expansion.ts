/**
 * Expand/collapse policy and memory. A task is open while it runs and closes when it ends,
 * unless the user toggled it: user choices win, are saved with `setState` and survive a
 * reload (the host re-sends a snapshot; the rows re-open from the saved choices).
 */
import { loadState, saveState, type PersistedState } from './vscode-api';

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

  hasChoice(id: string): boolean {
    return id in this.state.expanded;
  }

  setChoice(id: string, open: boolean): void {
    this.state.expanded[id] = open;
    this.save();
  }

  /** Forgets choices for nodes a new snapshot no longer has (keeps the saved state small). */
  retain(keep: (id: string) => boolean): void {
    const entries = Object.entries(this.state.expanded);
    const kept = entries.filter(([id]) => keep(id));
    if (kept.length === entries.length) return;
    this.state.expanded = Object.fromEntries(kept);
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

  private save(): void {
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    saveState(this.state);
  }
}
