/**
 * Which shared files the user checked in a Changes row (changes-row.ts), per subagent: Revert sends them so the
 * host includes them. Off by default and not saved: after a reload every shared file is left alone again.
 */
export class SharedChoices {
  private readonly byAgent = new Map<string, Set<string>>();

  has(agentId: string, path: string): boolean {
    return this.byAgent.get(agentId)?.has(path) ?? false;
  }

  set(agentId: string, path: string, on: boolean): void {
    const paths = this.byAgent.get(agentId) ?? new Set<string>();
    if (on) paths.add(path);
    else paths.delete(path);
    this.byAgent.set(agentId, paths);
  }

  checked(agentId: string): string[] {
    return [...(this.byAgent.get(agentId) ?? [])];
  }
}
