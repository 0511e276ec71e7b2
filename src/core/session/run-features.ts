/**
 * Request features an endpoint may turn out not to have, on for the whole session until it refuses one:
 *
 *   prompt_cache  cache_control breakpoints (on unless refused)
 *   web_search    the Messages API's server-side search tool (on when the session offers it)
 *
 *   loop: 400 "…cache_control…" ─▶ features.refuse('prompt_cache') ─▶ notice once, the request again without it
 *
 * The session builds one and every agent shares it (ModelAccess.features); nothing else turns a feature off.
 */
import type { RunFeature, RunFeatures } from '../loop/types';

export function createRunFeatures(on: readonly RunFeature[]): RunFeatures {
  const enabled = new Set(on);
  return {
    has: (feature) => enabled.has(feature),
    refuse: (feature) => {
      enabled.delete(feature);
    },
  };
}
