/** Default limits of a run; hosts override them from flags or settings. */
import { DEFAULT_MAX_OUTPUT_CHARS } from './output-limit';
import type { RunLimits } from './types';

export const DEFAULT_LIMITS: RunLimits = {
  maxTurns: 50,
  subagentMaxTurns: 30,
  maxParallel: 4,
  maxDepth: 1,
  maxOutputChars: DEFAULT_MAX_OUTPUT_CHARS,
};
