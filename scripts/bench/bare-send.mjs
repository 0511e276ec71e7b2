// The bare client's requests (issue 30: a delegation's wall time against a client that only makes the same requests):
// sends each recorded request (body and headers) in order over node:http with the given keep-alive agent and reads
// each answer to its end. No SDK, no harness. Used by bare-client.mjs (one process per run, section 2's one-shot
// comparison) and by warm-delegation.mjs (one long-lived process, the warm comparison).
import { request } from 'node:http';

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** Resolves once every request of `recorded` ([{ body, headers }]) has been answered (status 200) and read. */
export async function sendRecorded(recorded, baseURL, agent) {
  const url = new URL(`${baseURL.replace(/\/$/, '')}/v1/messages`);
  for (const { body, headers } of recorded) {
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
}
