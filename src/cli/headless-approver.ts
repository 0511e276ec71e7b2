import { approvalSubject, type Approver, type ToolCallRequest } from '../core/session/ports';
/**
 * The headless CLI cannot ask anyone: a call that needs approval is refused with a reason that
 * names the flag that would allow it, so the model can tell the user.
 */

export const headlessApprover: Approver = {
  async ask(request, reason) {
    return { decision: 'deny', reason: `${reason}; the headless CLI cannot ask for approval: rerun with ${flagFor(request, reason)} to allow it` };
  },
};

function flagFor(request: ToolCallRequest, reason: string): string {
  const about = approvalSubject(request, reason);
  // A host rule works in every mode (plan, an untrusted folder); a private destination accepts nothing else.
  if (about.fetchRule !== undefined) {
    const rule = `--allowed-tools "${about.fetchRule}"`;
    return request.privateDestination ? `${rule} (bypassPermissions does not cover it)` : `${rule} (or --allowed-tools ${about.fetchTool} for every host)`;
  }
  // A protected path (.git, .claude, .mcp.json…) is asked in acceptEdits too.
  if (request.kind === 'write') return about.protectedPath ? '--permission-mode bypassPermissions' : '--permission-mode acceptEdits (or bypassPermissions)';
  // A read-only tool is asked in plan mode too, where bypassPermissions is no answer: the rules are (any mode).
  const server = request.readOnly ? about.mcpServer : undefined;
  if (server !== undefined) return `--allowed-tools ${request.toolName} (or --allowed-tools ${server} for every tool of that server)`;
  if (request.kind === 'external') return `--allowed-tools ${request.toolName} (or --permission-mode bypassPermissions)`;
  return '--permission-mode bypassPermissions';
}
