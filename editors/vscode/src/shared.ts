// The shared language server: one per workspace and server command, outliving a window reload.
//
// A window reload ends the extension host and with it a server run over stdio; the new
// window then waits for a new Python process to import its modules and read the index again.
// With `ivycheck.sharedServer` (default on, not on Windows) the server runs as
// `ivycheck lsp --shared <socket>` instead: detached from the extension host, one client at
// a time on a Unix socket, keeping its index between clients and exiting by itself 10 s
// after the last one left. The new window connects to it (within a few milliseconds) and
// gets the restored file's diagnostics from a warm index.
//
// The socket lives in a private per-user folder (`$XDG_RUNTIME_DIR/ivycheck`, else
// `~/.cache/ivycheck/lsp`, as the server's `ivycheck.lsp.rendezvous` has it): the
// extension connects only if that folder is a real folder of this user that nobody else may
// write, and the server refuses any other. Its name is a digest of everything that makes
// two servers interchangeable: the interpreter, the server's arguments, import strategy and
// log level, the launcher of this copy of the extension, the working folder and the
// workspace folders. The server writes one line before LSP: `ivycheck-lsp <version> ready
// pid=<pid>` (then it is this window's), `... busy ...` (another window holds it: this
// window starts a server of its own over stdio, as without the setting) or `... stale ...`
// (the ivycheck code on disk changed since the server imported it: an upgrade, or an edit
// of an editable install, which the socket's name does not cover; the server exits, and
// this window starts a new one once it is gone). Any other word is taken as `busy`.

import * as childProcess from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as net from "net";
import * as os from "os";
import * as path from "path";
import type { Launch } from "./early";

/** The longest socket path Linux accepts. */
const MAX_SOCKET_PATH = 107;
/**
 * How long a server that accepted the connection may take to greet before it counts as
 * hung. Not how long a connection may take: the kernel accepts or refuses a Unix socket's
 * connection at once, and the answer waits only for this extension host's event loop (busy
 * loading the bundle after a reload: a timer started with the connection fired before
 * the greeting was read, and a needless server was started).
 */
export const GREETING_MS = 2000;
/** An upper bound on the whole attempt, whatever happens. */
const ATTEMPT_MS = 5000;
/** How long a server this window started may take to accept (its imports on a busy machine). */
const SPAWN_READY_MS = 30000;
/** Between two connection attempts to a server being started. */
const RETRY_MS = 20;
/** How long a server that said `stale` may take to exit (it does at once, but for its interpreter's exit). */
const STALE_EXIT_MS = 2000;

/** A connection a shared server greeted as this window's. */
export interface SharedConnection {
  socket: net.Socket;
  pid: number;
  version: string;
  /** Wall-clock ms of the greeting. */
  at: number;
}

/** What a connection attempt found. */
export type SharedOutcome = SharedConnection | "busy" | undefined;

/** A server that runs code no longer on disk: it closed the connection and is exiting. */
interface StaleServer {
  stalePid: number;
}

function isStale(found: SharedOutcome | StaleServer): found is StaleServer {
  return typeof found === "object" && "stalePid" in found;
}

/** The rendezvous folder (see the module comment). */
export function rendezvousFolder(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR ?? "";
  if (path.isAbsolute(runtime)) {
    try {
      if (fs.statSync(runtime).isDirectory()) {
        return path.join(runtime, "ivycheck");
      }
    } catch {
      // no such folder: the cache's
    }
  }
  const cache = env.XDG_CACHE_HOME ?? "";
  const base = path.isAbsolute(cache) ? cache : path.join(os.homedir(), ".cache");
  return path.join(base, "ivycheck", "lsp");
}

/** The socket of the shared server `launch` describes, or undefined where there is none (Windows, a path too long). */
export function sharedSocketPath(launch: Launch, folders: string[]): string | undefined {
  if (process.platform === "win32") {
    return undefined;
  }
  let launcherStamp = "-";
  try {
    launcherStamp = String(fs.statSync(launch.launcher).mtimeMs);
  } catch {
    // a development build without bundled/: the command line says enough
  }
  const key = JSON.stringify([
    launch.interpreter,
    launch.args,
    launch.strategy,
    launch.logLevel,
    launch.launcher,
    launcherStamp,
    launch.cwd ?? "",
    folders,
  ]);
  const name = crypto.createHash("sha256").update(key).digest("hex").slice(0, 24);
  const socket = path.join(rendezvousFolder(launch.env), `${name}.sock`);
  return Buffer.byteLength(socket) <= MAX_SOCKET_PATH ? socket : undefined;
}

/** Why the folder of `socket` may not be used (undefined: it may, or it does not exist yet: the server makes it). */
export function folderProblem(socket: string): string | undefined {
  const folder = path.dirname(socket);
  let found: fs.Stats;
  try {
    found = fs.lstatSync(folder);
  } catch {
    return undefined;
  }
  if (!found.isDirectory()) {
    return `${folder} is not a folder (a link or a file)`;
  }
  if (typeof process.getuid === "function" && found.uid !== process.getuid()) {
    return `${folder} belongs to another user`;
  }
  if (found.mode & 0o022) {
    return `${folder} may be written by others (mode ${(found.mode & 0o777).toString(8)})`;
  }
  return undefined;
}

/**
 * Connect to the socket and read the server's greeting (within `GREETING_MS` of the
 * connection). A connection refused, a socket file that is not there, silence or anything
 * but a greeting: undefined; a server that is exiting (`stale`) as well.
 */
export async function connectShared(socketPath: string): Promise<SharedOutcome> {
  const found = await greet(socketPath);
  return isStale(found) ? undefined : found;
}

/** `connectShared`, telling a server that said `stale` (and which) from no server. */
function greet(socketPath: string): Promise<SharedOutcome | StaleServer> {
  return new Promise((resolve) => {
    let settled = false;
    let received = Buffer.alloc(0);
    const socket = net.createConnection(socketPath);
    const finish = (outcome: SharedOutcome | StaleServer): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      socket.removeListener("data", onData);
      if (outcome === undefined || outcome === "busy" || isStale(outcome)) {
        socket.destroy();
      }
      resolve(outcome);
    };
    let timer = setTimeout(() => finish(undefined), ATTEMPT_MS);
    socket.on("connect", () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(undefined), GREETING_MS);
    });
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf(0x0a);
      if (end < 0) {
        if (received.length > 200) {
          finish(undefined); // no greeting: not an ivycheck server
        }
        return;
      }
      const words = received.subarray(0, end).toString("utf8").trim().split(/\s+/);
      const rest = received.subarray(end + 1);
      if (words[0] !== "ivycheck-lsp" || words.length < 4) {
        finish(undefined);
        return;
      }
      const pid = Number(words[3].replace(/^pid=/, ""));
      if (words[2] === "stale" && Number.isInteger(pid) && pid > 0) {
        finish({ stalePid: pid });
        return;
      }
      if (words[2] !== "ready") {
        finish("busy"); // busy, or a word this extension does not know
        return;
      }
      socket.pause();
      if (rest.length > 0) {
        socket.unshift(rest);
      }
      finish({ socket, pid, version: words[1], at: Date.now() });
    };
    socket.on("data", onData);
    socket.on("error", () => finish(undefined));
    socket.on("close", () => finish(undefined));
  });
}

/** A shared server this window started, detached: it outlives the extension host. */
export interface StartedShared {
  process: childProcess.ChildProcess;
  failed: () => string | undefined;
}

/**
 * Start `launch`'s server in shared mode on `socketPath`, detached from the extension host.
 * Its standard error goes to `<socket>.log` (what it logs also reaches the connected window
 * as log messages).
 */
export function spawnShared(launch: Launch, socketPath: string): StartedShared {
  let failure: string | undefined;
  let log: number | "ignore" = "ignore";
  try {
    fs.mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
    log = fs.openSync(`${socketPath}.log`, "w", 0o600);
  } catch {
    // no log file: the server still starts (and refuses a folder it may not use)
  }
  const started = childProcess.spawn(launch.interpreter, [...launch.args, "--shared", socketPath], {
    ...(launch.cwd ? { cwd: launch.cwd } : {}),
    env: launch.env,
    stdio: ["ignore", "ignore", log],
    detached: true,
  });
  if (typeof log === "number") {
    fs.closeSync(log);
  }
  started.on("error", (err) => {
    failure = err.message;
  });
  started.unref();
  return { process: started, failed: () => failure ?? exitFailure(started) };
}

/** A failure to report once the process has exited with an error. */
function exitFailure(started: childProcess.ChildProcess): string | undefined {
  if (started.exitCode !== null && started.exitCode !== 0) {
    return `the shared server exited with code ${started.exitCode}`;
  }
  return undefined;
}

/**
 * Connect to the server `started` is starting, as soon as it accepts: readiness is a
 * successful connection (and its greeting), never a fixed wait. Undefined if the process
 * fails or nothing accepts within `timeoutMs`. A process that exits with 0 found another
 * server serving the socket (two windows at once): that one is connected to.
 */
export async function waitForShared(
  socketPath: string,
  started: StartedShared,
  timeoutMs: number = SPAWN_READY_MS,
): Promise<SharedOutcome> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const outcome = await greet(socketPath);
    if (isStale(outcome)) {
      return undefined; // the code changed again as it started: a server of this window's own
    }
    if (outcome !== undefined) {
      return outcome;
    }
    if (started.failed() !== undefined) {
      return undefined;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  return undefined;
}

/** What `connectOrStart` found, and what it did. */
export interface SharedAttempt {
  outcome: SharedOutcome;
  /** The server it started, if it did. */
  started?: StartedShared;
  /** The pid of a server that said `stale`, which the started one replaces. */
  replaced?: number;
}

/**
 * Connect, or start the server and connect once it accepts. A server that said `stale`
 * (its pid in `replaced`) is waited for until it is gone, up to `STALE_EXIT_MS`, then
 * replaced (a server started while it holds the socket's lock would wait for the lock).
 */
export async function connectOrStart(launch: Launch, socketPath: string): Promise<SharedAttempt> {
  const found = await greet(socketPath);
  if (found !== undefined && !isStale(found)) {
    return { outcome: found };
  }
  const replaced = isStale(found) ? found.stalePid : undefined;
  if (replaced !== undefined) {
    await processGone(replaced, STALE_EXIT_MS);
  }
  const started = spawnShared(launch, socketPath);
  return { outcome: await waitForShared(socketPath, started), started, replaced };
}

/** Wait until process `pid` is gone (or `timeoutMs` passed): it was told to stop, or is stopping. */
async function processGone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return; // gone (or no longer this user's: another process took the number)
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Stop the shared server `pid` (the restart command: a real restart, not a reconnection to
 * the same process) and wait, up to 3 s, until it is gone.
 */
export async function stopShared(pid: number): Promise<void> {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return; // gone already
  }
  await processGone(pid, 3000);
}
