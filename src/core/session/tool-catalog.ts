/**
 * The session's base tools — bash, the file tools, glob, grep, web_fetch, then each MCP server's tools as it
 * connects — held in one place the session owns, instead of being re-assigned into the run's ports:
 *
 *   createSession ─▶ new ToolCatalog(base tools, filtered by what the session offers)
 *   MCP server connected ─▶ catalog.add(its tools)   (a name already there is kept; the next agent to start sees them)
 *   an agent starts ─▶ catalog.current()              (the root's spec and the child runs' baseTools() read it; a running agent keeps its list)
 */
import type { AnyTool, ToolRegistry } from '../tools/types';

export class ToolCatalog {
  #tools: ToolRegistry;

  constructor(tools: ToolRegistry) {
    this.#tools = tools;
  }

  current(): ToolRegistry {
    return this.#tools;
  }

  /** Adds the tools whose names are new; returns how many joined. */
  add(tools: readonly AnyTool[]): number {
    const current = this.#tools;
    const added = tools.filter((t) => !current.get(t.name));
    if (added.length > 0) this.#tools = current.with(...added);
    return added.length;
  }
}
