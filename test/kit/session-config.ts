/**
 * A core session's config for a test: the folders, a model, a mode and an approver, with any group patched over
 * (`{ limits: { maxBudgetUsd: 5 } }`, `{ persistence: { resume } }`); what a patch leaves out is createSession's default.
 * testSession() (test-session.ts) builds its session with it; a test that calls createSession itself may too.
 */
import type { SessionConfig } from '../../src/core/session';
import type { Approver } from '../../src/core/session/ports';
import type { ModelPort } from '../../src/core/session/model-port';
import type { PermissionMode } from '../../src/core/vocabulary';

export type ConfigPatch = { [K in Exclude<keyof SessionConfig, 'workdir'>]?: Partial<SessionConfig[K]> };

export interface ConfigBase {
  workdir: string;
  transcriptRoot: string;
  model: ModelPort;
  modelId: string;
  mode: PermissionMode;
  approver: Approver;
}

export function testConfig(base: ConfigBase, patch: ConfigPatch = {}): SessionConfig {
  return {
    workdir: base.workdir,
    model: { id: base.modelId, ...patch.model },
    permissions: { mode: base.mode, ...patch.permissions },
    ...(patch.tools ? { tools: patch.tools } : {}),
    ...(patch.limits ? { limits: patch.limits } : {}),
    ...(patch.files ? { files: patch.files } : {}),
    persistence: { transcriptRoot: base.transcriptRoot, ...patch.persistence },
    ports: { model: base.model, approver: base.approver, ...patch.ports },
  };
}
