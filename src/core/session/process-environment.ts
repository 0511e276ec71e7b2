/**
 * The fourth face (hosts may import it; see index.ts): what a host does first, before it reads its settings —
 * clear the credentials out of this process's initial environment block (secrets/process-environment.ts). Apart
 * from the session, so the CLI pays for nothing more than this at start.
 */
export { sealProcessEnvironment } from '../secrets/process-environment';
