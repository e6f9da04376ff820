// The server's command line, and its start as this module loads.
//
// After a window reload VS Code's new extension host loads this extension's bundle and then,
// before calling `activate()`, prepares its context (global and workspace state come from
// the window's process); on a busy machine that took 0.1-1.1 s. The server's own start
// (a Python process importing pygls, lsprotocol and the checker) is the longest
// stage after it, and it needs none of that: so when the command is known without asking
// anything asynchronous (`ivycheck.interpreter` is set), the server process is started
// here, as the bundle is evaluated, before the language client library's code is.
// `activate()` then hands this process to the language client if it is what it would have
// started itself (the same command, arguments, environment and directory, and the
// interpreter check passed before), and stops it otherwise. With `ivycheck.sharedServer`
// (shared.ts) it is the connection to the shared server that is begun here (and the server
// started, detached, if none accepts): a window reload's new extension host is connected to
// the warm server before `activate()` is called.
//
// This module is imported first by extension.ts, so that esbuild evaluates it before
// vscode-languageclient.

import * as childProcess from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import { connectOrStart, folderProblem, SharedAttempt, sharedSocketPath } from "./shared";

export const SECTION = "ivycheck";
export const IMPORT_STRATEGIES = ["useBundled", "fromEnvironment"];
export const LOG_LEVELS = ["error", "warning", "info", "debug"];

export function firstWorkspaceFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

/** Expands `~` and `${workspaceFolder}`; resolves a relative path (with a separator) from the first workspace folder. */
export function expandPath(value: string): string {
  const folder = firstWorkspaceFolder()?.uri.fsPath;
  let result = value.trim();
  if (result === "~" || result.startsWith("~/") || result.startsWith("~\\")) {
    result = path.join(os.homedir(), result.slice(1));
  }
  if (folder) {
    result = result.replace(/\$\{workspaceFolder\}/g, folder);
  }
  const hasSeparator = result.includes("/") || result.includes("\\");
  if (folder && hasSeparator && !path.isAbsolute(result)) {
    result = path.join(folder, result);
  }
  return result;
}

/** How the server is started: everything but the interpreter comes from the settings. */
export interface Launch {
  interpreter: string;
  args: string[];
  strategy: string;
  logLevel: string;
  launcher: string;
  bundled: boolean;
  cwd: string | undefined;
  env: NodeJS.ProcessEnv;
}

export function launchFor(
  config: vscode.WorkspaceConfiguration,
  interpreter: string,
  extensionPath: string,
): Launch {
  const extraArgs = config.get<string[]>("args", []).filter((a) => typeof a === "string");
  const configuredStrategy = config.get<string>("importStrategy", "useBundled");
  const strategy = IMPORT_STRATEGIES.includes(configuredStrategy) ? configuredStrategy : "useBundled";
  const launcher = path.join(extensionPath, "bundled", "tool", "launch.py");
  const bundled = extensionPath !== "" && fs.existsSync(launcher);
  const args = bundled ? [launcher, "lsp", ...extraArgs] : ["-m", "ivycheck", "lsp", ...extraArgs];
  const configuredLevel = config.get<string>("logLevel", "warning");
  const logLevel = LOG_LEVELS.includes(configuredLevel) ? configuredLevel : "warning";
  const env = { ...process.env, IVYCHECK_IMPORT_STRATEGY: strategy, IVYCHECK_LOG_LEVEL: logLevel };
  const cwd = firstWorkspaceFolder()?.uri.fsPath;
  return { interpreter, args, strategy, logLevel, launcher, bundled, cwd, env };
}

/** The same process `launch` describes (so that the early one may serve). */
export function sameLaunch(a: Launch, b: Launch): boolean {
  return JSON.stringify([a.interpreter, a.args, a.cwd, a.env]) === JSON.stringify([b.interpreter, b.args, b.cwd, b.env]);
}

/** Start the server process `launch` describes; a failure to start is recorded, never thrown. */
export function spawnServer(launch: Launch): { process: childProcess.ChildProcess; failed: () => string | undefined } {
  let failure: string | undefined;
  const started = childProcess.spawn(launch.interpreter, launch.args, {
    ...(launch.cwd ? { cwd: launch.cwd } : {}),
    env: launch.env,
    stdio: "pipe",
  });
  // Without a listener, a failed start (ENOENT) would be an uncaught error in the extension host.
  started.on("error", (err) => {
    failure = err.message;
  });
  return { process: started, failed: () => failure };
}

/** The server process started as the bundle loaded, until `activate()` takes or stops it. */
export interface EarlyStart {
  launch: Launch;
  process: childProcess.ChildProcess;
  failed: () => string | undefined;
  /** Wall-clock ms of the start. */
  at: number;
}

let early: EarlyStart | undefined;

/** The shared server's connection begun as the bundle loaded (`ivycheck.sharedServer`). */
export interface EarlyShared {
  launch: Launch;
  socketPath: string;
  connecting: Promise<SharedAttempt>;
  /** Wall-clock ms of the start. */
  at: number;
}

let earlyShared: EarlyShared | undefined;

/** The workspace folders, as the shared server's socket name has them. */
export function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
}

/** The socket of the shared server for `launch`, if `ivycheck.sharedServer` is on and it can be used. */
export function usableSocket(config: vscode.WorkspaceConfiguration, launch: Launch): { socket?: string; problem?: string } {
  if (!config.get<boolean>("sharedServer", true)) {
    return {};
  }
  const socket = sharedSocketPath(launch, workspaceFolderPaths());
  if (socket === undefined) {
    return {};
  }
  const problem = folderProblem(socket);
  return problem === undefined ? { socket } : { problem };
}

function startEarly(): void {
  const config = vscode.workspace.getConfiguration(SECTION, firstWorkspaceFolder()?.uri);
  const configured = config.get<string>("interpreter", "").trim();
  if (!config.get<boolean>("enable", true) || !configured) {
    return; // the Python extension would have to be asked: that is `activate()`'s
  }
  const extensionPath = path.dirname(__dirname); // the bundle is <extension>/out/extension.js
  const launch = launchFor(config, expandPath(configured), extensionPath);
  if (!launch.bundled) {
    return;
  }
  const at = Date.now();
  const { socket } = usableSocket(config, launch);
  if (socket !== undefined) {
    earlyShared = { launch, socketPath: socket, connecting: connectOrStart(launch, socket), at };
    return;
  }
  const { process: started, failed } = spawnServer(launch);
  early = { launch, process: started, failed, at };
}

try {
  startEarly();
} catch {
  early = undefined; // activate() starts the server as usual
}

/** The early process, once: for `launch` if it is that process and still running, else stopped. */
export function takeEarly(launch: Launch | undefined): EarlyStart | undefined {
  const found = early;
  early = undefined;
  if (found === undefined) {
    return undefined;
  }
  const usable =
    launch !== undefined &&
    sameLaunch(found.launch, launch) &&
    found.failed() === undefined &&
    found.process.exitCode === null &&
    found.process.signalCode === null;
  if (!usable) {
    found.process.stdin?.end();
    found.process.kill();
    return undefined;
  }
  return found;
}

/**
 * The shared server's connection begun as the bundle loaded, once: if it was begun for
 * `launch` and `socket`; otherwise its connection, when made, is closed (the server it
 * may have started exits by itself once idle).
 */
export function takeEarlyShared(launch: Launch | undefined, socket: string | undefined): EarlyShared | undefined {
  const found = earlyShared;
  earlyShared = undefined;
  if (found === undefined) {
    return undefined;
  }
  if (launch !== undefined && sameLaunch(found.launch, launch) && found.socketPath === socket) {
    return found;
  }
  void found.connecting.then(({ outcome }) => {
    if (outcome !== undefined && outcome !== "busy") {
      outcome.socket.destroy();
    }
  });
  return undefined;
}
