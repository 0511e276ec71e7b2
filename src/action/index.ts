/** The action's entry on the runner (bundled to dist/action/index.js, action.yml's `runs.main`): runs main.ts. */
import { run } from './main';

void run();
