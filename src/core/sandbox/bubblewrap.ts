/**
 * The bubblewrap command line that confines one `bash` command. What the command sees:
 *
 *   /            the host's root, read-only: system folders and HOME (`rm -rf ~` → Read-only file system)
 *   /dev /proc   fresh: a minimal /dev (private /dev/shm), a /proc of the sandbox's own processes only
 *   /tmp         the session's private temp folder (a host folder), writable, kept between commands
 *   WORKDIR      the workspace, writable; mounted after /tmp so a workspace under /tmp still shows
 *   protected    inside it, read-only: .git/hooks, .git/config, .claude, .mcp.json, .vscode… (protected-mounts.ts),
 *                and the folders above them pinned (bound onto themselves) so they cannot be renamed away
 *   *.sock       well-known sockets that hand out root (Docker, containerd, podman, systemd, D-Bus) → /dev/null
 *   network      off: a namespace of its own with only its own loopback; allowed: the host's, all of it
 *   processes    own user (no capabilities) and pid namespace: `kill -9 -1`, `su`, `mount` reach nothing outside
 *
 * Mount order matters (later mounts cover earlier ones): `--tmpfs /tmp` after `--bind WORKDIR` would hide a
 * workspace under /tmp. No `--new-session`: the bash tool kills the command's process group, and setsid
 * would move the sandbox out of it; the command already has no terminal (its own session, stdin /dev/null).
 * With the pid namespace, bwrap's death ends everything inside (even what escaped the group), and
 * `--die-with-parent` ties bwrap to us. That alone is not enough: with a user namespace the inner bwrap (the
 * namespace's init) was seen to survive a SIGKILL of Delegate, reparented to the host's init, about one
 * time in three. So the command also gets a lifeline: fd 3 is a pipe whose other end only Delegate holds; a
 * watcher inside reads it, and when Delegate dies (whatever the signal) the read ends and the watcher kills
 * every process in the namespace. The command itself never sees fd 3.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { NAMESPACE_ARGS } from './probe';
import { depthFirst } from './protected-mounts';

export interface BubblewrapPlan {
  /** The workspace (a real path: symlinks resolved). */
  workdir: string;
  /** Host folder shown as /tmp. */
  tmpdir: string;
  /** True: the host's network namespace (all of it, loopback included); false: none. */
  network: boolean;
  /** The user's home folder; re-shown read-only when it lives under /tmp (the private /tmp would hide it). */
  home?: string;
  /** Existing paths to cover with /dev/null. */
  hide?: string[];
  /** Inside the workspace: folders bound onto themselves (pins) and paths bound read-only, all existing. */
  protect?: { pins: readonly string[]; readOnly: readonly string[] };
}

/** Sockets that give whoever connects root on the host, or a way to start programs outside the sandbox. */
export function privilegedSockets(env: NodeJS.ProcessEnv = process.env, uid = process.getuid?.() ?? -1): string[] {
  const runtime = env.XDG_RUNTIME_DIR || (uid >= 0 ? `/run/user/${uid}` : undefined);
  const candidates = [
    '/run/docker.sock',
    '/var/run/docker.sock',
    '/run/containerd/containerd.sock',
    '/run/podman/podman.sock',
    '/run/dbus/system_bus_socket',
    '/var/run/dbus/system_bus_socket',
    '/run/systemd/private',
    '/run/systemd/io.systemd.Manager',
    ...(runtime ? ['bus', 'docker.sock', 'podman/podman.sock', 'systemd/private'].map((p) => join(runtime, p)) : []),
  ];
  // /var/run is usually a link to /run: one mount per real socket.
  return [...new Set(candidates.filter((p) => existsSync(p)).map((p) => realpathSync(p)))];
}

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
}

/** bwrap's arguments (without `bwrap` itself) to run `command` with /bin/bash -c under `plan`. */
export function bubblewrapArgs(plan: BubblewrapPlan, command: string): string[] {
  const args: string[] = [...NAMESPACE_ARGS];
  if (!plan.network) args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', plan.tmpdir, '/tmp');
  if (plan.home && isInside('/tmp', plan.home) && !isInside(plan.workdir, plan.home) && existsSync(plan.home)) {
    args.push('--ro-bind', plan.home, plan.home);
  }
  args.push('--bind', plan.workdir, plan.workdir);
  // Shallow first: a pinned folder's mount must be in place before the read-only ones inside it.
  const mounts = [
    ...(plan.protect?.pins ?? []).map((path) => ({ how: '--bind', path })),
    ...(plan.protect?.readOnly ?? []).map((path) => ({ how: '--ro-bind', path })),
  ];
  for (const { how, path } of mounts.sort((a, b) => depthFirst(a.path, b.path))) {
    if (path !== plan.workdir && isInside(plan.workdir, path)) args.push(how, path, path);
  }
  for (const path of plan.hide ?? []) {
    // A socket inside the workspace or /tmp is the user's own business; and bwrap needs the target's folder.
    if (isInside(plan.workdir, path) || isInside('/tmp', path) || !existsSync(dirname(path))) continue;
    args.push('--ro-bind', '/dev/null', path);
  }
  args.push('--chdir', plan.workdir, '--', '/bin/bash', '-c', LIFELINE, 'delegate-sandbox', command);
  return args;
}

/**
 * Runs inside the sandbox: a watcher holds fd 3 (the lifeline) and, once it reads end-of-file (Delegate is
 * gone), kills everything in the pid namespace; the command runs without fd 3.
 */
export const LIFELINE = '{ read -r _ <&3; kill -KILL -1; } 3<&3 & exec 3<&-; exec /bin/bash -c "$1"';
