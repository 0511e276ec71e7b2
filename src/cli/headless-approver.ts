/**
 * The headless CLI cannot ask anyone: a call that needs approval is refused with a reason that
 * names the flag that would allow it, so the model can tell the user.
 */
import type { Approver } from '../core/policy/types';

export const headlessApprover: Approver = {
  async ask(request, reason) {
    const flag =
      request.kind === 'write'
        ? '--permission-mode acceptEdits (or bypassPermissions)'
        : request.kind === 'external'
          ? `--allowed-tools ${request.toolName} (or --permission-mode bypassPermissions)`
          : '--permission-mode bypassPermissions';
    return { decision: 'deny', reason: `${reason}; the headless CLI cannot ask for approval: rerun with ${flag} to allow it` };
  },
};
