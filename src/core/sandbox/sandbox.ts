/**
 * The session's sandbox for `bash`: turns the setting (auto | on | off, network allowed or not) and what the
 * machine can do (probe.ts) into a status, and each command into the process to start.
 *
 *   mode off                      ─▶ none (by choice)      commands run as plain /bin/bash -c
 *   mode auto, bwrap cannot run   ─▶ none (unavailable)    same, and the host says so once
 *   mode on,   bwrap cannot run   ─▶ refused               every command is refused (the CLI exits 2 first)
 *   mode auto|on, bwrap runs      ─▶ bubblewrap            bwrap … /bin/bash -c (bubblewrap.ts)
 *
 * Why our own few lines of bwrap and not @anthropic-ai/sandbox-runtime (what Claude Code uses): it is a
 * 0.0.x research preview (79 releases so far) of ~9 MB with vendored seccomp binaries, a process-wide
 * singleton, and per-host filtering through HTTP/SOCKS proxies bridged with socat (another Debian package);
 * its `--new-session` also moves commands out of the process group our kill paths rely on. What we need —
 * a read-only system, a writable workspace and temp, network on or off — is one bwrap command line.
 * "Allow network" is therefore all-or-nothing: there is no per-host filter (that needs such a proxy).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { CommandLauncher, LaunchPlan } from '../tools/bash';
import { bubblewrapArgs, privilegedSockets } from './bubblewrap';
import { EXCLUDES_IN_SANDBOX, gitExcludesEnv, gitExcludesText } from './git-excludes';
import { processPlaceholders, type Placeholders } from './placeholders';
import { probeBubblewrap, type ProbeResult } from './probe';
import { planProtection, type ProtectionPlan } from './protected-mounts';
import { refusalNote } from './refusal-note';
import type { SandboxSettings, SandboxStatus } from './types';

export { describeSandbox, type SandboxSettings, type SandboxStatus } from './types';

/** The status a setting gets on this machine (the probe is cached, so this is cheap after the first call). */
export async function resolveSandbox(settings: SandboxSettings, probe: () => Promise<ProbeResult> = probeBubblewrap): Promise<SandboxStatus> {
  if (settings.mode === 'off') return { kind: 'none', reason: 'off', detail: 'the sandbox is turned off' };
  const found = await probe();
  if (found.ok) return { kind: 'bubblewrap', network: settings.allowNetwork };
  if (settings.mode === 'on') return { kind: 'refused', detail: found.reason };
  return { kind: 'none', reason: 'unavailable', detail: found.reason };
}

/** Private temp folders made by this process, removed when it exits. */
const tempFolders = new Set<string>();
let cleanupInstalled = false;

function makeTempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'delegate-sandbox-'));
  tempFolders.add(dir);
  if (!cleanupInstalled) {
    cleanupInstalled = true;
    process.once('exit', () => {
      for (const d of tempFolders) rmSync(d, { recursive: true, force: true });
    });
  }
  return dir;
}

/** Inside the sandbox HOME is read-only: temp files and tool caches go to the private /tmp instead. */
const SANDBOX_ENV = { TMPDIR: '/tmp', XDG_CACHE_HOME: '/tmp/.cache', npm_config_cache: '/tmp/.npm' };
/** Without a network, npm retries a failed lookup for about 70 s and pip for half a minute: fail at once instead. */
const NO_NETWORK_ENV = { npm_config_fetch_retries: '0', PIP_RETRIES: '0' };

/** What tests swap: the availability probe, the list of sockets to hide, what holds the protected paths. */
export interface SandboxPorts {
  probe?: () => Promise<ProbeResult>;
  hide?: () => string[];
  protect?: (workdir: string, home: string) => ProtectionPlan;
  placeholders?: Placeholders;
}

export class Sandbox implements CommandLauncher {
  private statusPromise: Promise<SandboxStatus> | undefined;
  private temp: string | undefined;
  /** The text last written to git's excludes file in the private /tmp (git-excludes.ts). */
  private excludes: string | undefined;
  private readonly realWorkdirs = new Map<string, string>();

  constructor(
    readonly settings: SandboxSettings,
    private readonly ports: SandboxPorts = {},
  ) {}

  /** Resolved once per session, on the first call: a host asking which sandbox is in force, or the first command. */
  status(): Promise<SandboxStatus> {
    this.statusPromise ??= resolveSandbox(this.settings, this.ports.probe);
    return this.statusPromise;
  }

  async prepare(command: string, workdir: string): Promise<LaunchPlan | { refused: string }> {
    const status = await this.status();
    if (status.kind === 'refused') {
      return { refused: `bash refused: the sandbox is required (sandbox: on) but ${status.detail}; nothing was run` };
    }
    if (status.kind === 'none') return { file: '/bin/bash', args: ['-c', command] };
    this.temp ??= makeTempFolder();
    const real = await this.realWorkdir(workdir);
    const home = homedir();
    // Found fresh for each command: what exists decides between a read-only mount and a placeholder.
    const protection = (this.ports.protect ?? planProtection)(real, home);
    const held = (this.ports.placeholders ?? processPlaceholders).hold(protection.placeholders);
    const excludes = this.writeExcludes(gitExcludesText(real, held.paths, home));
    const plan = {
      workdir: real,
      tmpdir: this.temp,
      network: status.network,
      home,
      hide: (this.ports.hide ?? privilegedSockets)(),
      protect: { pins: protection.pins, readOnly: [...protection.readOnly, ...held.paths] },
    };
    return {
      file: 'bwrap',
      args: bubblewrapArgs(plan, command),
      env: { ...SANDBOX_ENV, ...(status.network ? {} : NO_NETWORK_ENV), ...(excludes ? gitExcludesEnv() : {}) },
      lifeline: true,
      release: held.release,
      explain: (output) => refusalNote(output, real, protection.hooksPaths),
    };
  }

  /** Writes git's excludes file into the private /tmp when its text changed; false when there is none (or it failed). */
  private writeExcludes(text: string | undefined): boolean {
    if (text === undefined || this.temp === undefined) return false;
    if (text === this.excludes) return true;
    try {
      writeFileSync(join(this.temp, basename(EXCLUDES_IN_SANDBOX)), text);
      this.excludes = text;
      return true;
    } catch {
      return false;
    }
  }

  /** The host folder behind the sandbox's /tmp (made on the first sandboxed command), for tests and diagnostics. */
  get tempFolder(): string | undefined {
    return this.temp;
  }

  /** Removes the private /tmp now (the session is closing); a later command gets a fresh one. */
  removeTempFolder(): void {
    if (!this.temp) return;
    rmSync(this.temp, { recursive: true, force: true });
    tempFolders.delete(this.temp);
    this.temp = undefined;
    this.excludes = undefined;
  }

  private async realWorkdir(workdir: string): Promise<string> {
    const known = this.realWorkdirs.get(workdir);
    if (known !== undefined) return known;
    try {
      const real = await realpath(workdir);
      this.realWorkdirs.set(workdir, real);
      return real;
    } catch {
      // A missing folder is reported by the spawn (as without a sandbox): pass the path on as given.
      return workdir;
    }
  }
}
