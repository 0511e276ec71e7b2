/**
 * A private certificate authority made at test time with the machine's `openssl`, and a server certificate it
 * signed for localhost / 127.0.0.1 / 127.0.0.2: what a company's TLS-inspecting proxy or internal gateway looks
 * like to a client. The client trusts it only through NODE_EXTRA_CA_CERTS=<caFile>.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs';

export interface TestCa {
  /** The CA's certificate (PEM file): what NODE_EXTRA_CA_CERTS points at. */
  caFile: string;
  /** The server's key and certificate (PEM), for https.createServer. */
  key: string;
  cert: string;
}

export function makeTestCa(): TestCa {
  const dir = tempDir('delegate-ca-');
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=Delegate Test CA', '-keyout', at('ca.key'), '-out', at('ca.pem'));
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', at('server.key'), '-out', at('server.csr'));
  writeFileSync(at('san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:127.0.0.2\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-days', '2', '-extfile', at('san.ext'), '-out', at('server.pem'));
  return { caFile: at('ca.pem'), key: readFileSync(at('server.key'), 'utf8'), cert: readFileSync(at('server.pem'), 'utf8') };
}
