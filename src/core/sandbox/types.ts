/** The sandbox's settings and status, shared by the core and both hosts (imports only the vocabulary's SandboxMode). */
import type { SandboxMode } from '../vocabulary';

export interface SandboxSettings {
  mode: SandboxMode;
  /** All-or-nothing: the host's whole network (loopback included), or none. */
  allowNetwork: boolean;
}

export const DEFAULT_SANDBOX: SandboxSettings = { mode: 'auto', allowNetwork: false };

export type SandboxStatus =
  | { kind: 'bubblewrap'; network: boolean }
  | { kind: 'none'; reason: 'off' | 'unavailable'; detail: string }
  | { kind: 'refused'; detail: string };

/** One line for people: what confines `bash` right now. */
export function describeSandbox(status: SandboxStatus): string {
  switch (status.kind) {
    case 'bubblewrap':
      return `bubblewrap (writable: the workspace and a private /tmp; network: ${status.network ? 'allowed, all hosts' : 'off'})`;
    case 'none':
      return status.reason === 'off' ? 'none (turned off)' : `none: ${status.detail}`;
    case 'refused':
      return `required but unavailable: ${status.detail}`;
  }
}
