// A bare Node client for section 2 (issue 30: one delegation's wall time against a client that only makes the same
// requests): node bare-client.mjs REQUESTS.json BASE_URL sends each recorded request (body and headers) in order over
// node:http (keep-alive), reads each answer to its end, and exits. No SDK, no harness: the floor a CLI run is
// measured against.
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { sendRecorded } from './bare-send.mjs';

const [bodiesFile, baseURL] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true });
await sendRecorded(JSON.parse(readFileSync(bodiesFile, 'utf8')), baseURL, agent);
agent.destroy();
