/**
 * The real MCP reference server (@modelcontextprotocol/server-everything), run from node_modules by path (never
 * fetched at test time), over stdio or HTTP; and /proc helpers to check that no server process is left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { McpServerConfig } from '../../src/core/mcp/config';
import { REPO } from './run-cli';

export const EVERYTHING = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** A stdio config for the everything server (or any command). */
export function stdioServer(name: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { name, source: 'test', origin: 'explicit', transport: 'stdio', command: process.execPath, args: [EVERYTHING], env: {}, headers: {}, inputs: [], ...extra };
}

/** The pids whose process group is `pgid` (alive, not zombies). */
export function groupMembers(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Fields after the name: state, ppid, pgrp, …
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) pids.push(Number(entry));
    } catch {
      // gone while we looked
    }
  }
  return pids;
}

/** Process groups whose leader runs the everything server or a wrapper of it started by this test process. */
export function serverGroupsOf(marker: string): number[] {
  const groups = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') groups.add(Number(fields[2]));
    } catch {
      // gone while we looked
    }
  }
  return [...groups];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The everything server over HTTP (`streamableHttp` or `sse`) on a free port; resolves once it listens. */
export async function startHttpServer(mode: 'streamableHttp' | 'sse'): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { PATH: process.env.PATH, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${mode} server did not start: ${said}`)), 15_000);
    const listen = (d: Buffer): void => {
      said += d.toString();
      if (/port \d+/i.test(said)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', listen);
    child.stderr?.on('data', listen);
    child.once('exit', (code) => reject(new Error(`the ${mode} server exited (${code}): ${said}`)));
  });
  const path = mode === 'sse' ? '/sse' : '/mcp';
  return {
    url: `http://127.0.0.1:${port}${path}`,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
