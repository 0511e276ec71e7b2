/**
 * The third face (hosts may import it; see index.ts): the bubblewrap probe alone, which the CLI starts before it
 * loads the session so the probe's spawn overlaps the rest of the start.
 */
export { probeBubblewrap } from '../sandbox/probe';
