// A bare Node client for section 2 (issue 30: one delegation's wall time against a client that only makes the same
// requests): node bare-client.mjs REQUESTS.json BASE_URL sends each recorded request (body and headers) in order over
// node:http (keep-alive), reads each answer to its end, and exits. No SDK, no harness: the floor a CLI run is
// measured against.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const [bodiesFile, baseURL] = process.argv.slice(2);
const bodies = JSON.parse(readFileSync(bodiesFile, 'utf8'));
const agent = new Agent({ keepAlive: true });
const url = new URL(`${baseURL.replace(/\/$/, '')}/v1/messages`);

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);
for (const { body, headers } of bodies) {
  const payload = JSON.stringify(body);
  const sent = Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP.has(k.toLowerCase())));
  await new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...sent, 'content-length': Buffer.byteLength(payload) } }, (res) => {
      if (res.statusCode !== 200) res.on('data', (d) => process.stderr.write(`${res.statusCode}: ${d}\n`));
      else res.on('data', () => undefined);
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}
agent.destroy();
