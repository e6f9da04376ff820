// VS Code client for the ivycheck language server.
//
// Runs `<interpreter> bundled/tool/launch.py lsp <ivycheck.args>` over stdio, with
// IVYCHECK_IMPORT_STRATEGY from `ivycheck.importStrategy`: the launcher puts the ivycheck
// bundled in the .vsix (bundled/libs/<tag>, built by `make vsix`) before or after the
// interpreter's own, as Microsoft's Python tool extensions do. A build without
// bundled/ (a development checkout) runs `<interpreter> -m ivycheck lsp`. The server
// reads `ivycheck.select`, `ivycheck.ignore` and `ivycheck.enable` through
// `workspace/configuration`; the language client answers those requests from
// the VS Code settings because `synchronize.configurationSection` is "ivycheck".

// First: it may start the server process before vscode-languageclient is evaluated.
import {
  EarlyStart,
  expandPath,
  firstWorkspaceFolder,
  Launch,
  launchFor,
  SECTION,
  spawnServer,
  takeEarly,
  takeEarlyShared,
  usableSocket,
} from "./early";
import { connectOrStart, connectShared, SharedConnection, SharedOutcome, stopShared } from "./shared";
import * as childProcess from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  Middleware,
  ServerOptions,
  StreamInfo,
  TransportKind,
} from "vscode-languageclient/node";

const FIX_ALL_KIND = "source.fixAll.ivycheck";

/**
 * The language client, less one line: vscode-languageclient logs every exit of the server
 * process as an error, `Server process exited with code 0.` included, which is how every
 * normal stop and restart ends. A non-zero code or a signal is still an error.
 */
class IvycheckClient extends LanguageClient {
  public error(message: string, data?: any, showNotification?: boolean | "force"): void {
    if (message === "Server process exited with code 0.") {
      log("server process exited (code 0)");
      return;
    }
    super.error(message, data, showNotification);
  }
}

let client: LanguageClient | undefined;
let status: vscode.LanguageStatusItem | undefined;
/** The error notification shown for the last failed start, while it is still open. */
let openError: Thenable<unknown> | undefined;
let extensionPath = "";
let clientWatchers: vscode.FileSystemWatcher[] = [];
let output: vscode.OutputChannel | undefined;
// Serialises start/stop/restart so that quick successive settings changes
// never run two servers at once.
let queue: Promise<void> = Promise.resolve();

function log(message: string): void {
  output?.appendLine(`[client] ${message}`);
}

/** Whether `ivycheck.logLevel` is "debug": the start-up timing marks go to the output channel. */
let timings = false;
/** When this extension host process started (wall clock, ms since the epoch). */
const hostStarted = Date.now() - Math.round(process.uptime() * 1000);

/**
 * A timing mark, at `ivycheck.logLevel` "debug" only: where the time from a window
 * (re)load to the first diagnostic goes. Wall-clock milliseconds since the epoch, so that a
 * test harness can set them against its own clock and against the server's marks.
 */
function timing(what: string, now: number = Date.now()): void {
  if (timings) {
    log(`timing: ${what} at ${now} (${now - hostStarted} ms after the extension host started)`);
  }
}

function enqueue(task: () => Promise<void>): Promise<void> {
  queue = queue.then(task).catch((err: unknown) => {
    log(`error: ${errorText(err)}`);
  });
  return queue;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The interpreter the Python extension (ms-python.python) has selected, if any. */
async function pythonExtensionInterpreter(): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension("ms-python.python");
  if (!ext) {
    return undefined;
  }
  try {
    if (!ext.isActive) {
      await ext.activate();
    }
    // Shape of the public API (@vscode/python-extension); typed loosely so
    // that no extra dependency is needed.
    const environments = (ext.exports as any)?.environments;
    if (!environments?.getActiveEnvironmentPath) {
      return undefined;
    }
    const envPath = environments.getActiveEnvironmentPath(firstWorkspaceFolder()?.uri);
    const resolved = await environments.resolveEnvironment(envPath);
    const executable: string | undefined = resolved?.executable?.uri?.fsPath ?? envPath?.path;
    return executable || undefined;
  } catch (err) {
    log(`could not ask the Python extension for its interpreter: ${errorText(err)}`);
    return undefined;
  }
}

async function resolveInterpreter(config: vscode.WorkspaceConfiguration): Promise<string> {
  const configured = config.get<string>("interpreter", "").trim();
  if (configured) {
    return expandPath(configured);
  }
  const fromPython = await pythonExtensionInterpreter();
  if (fromPython) {
    return fromPython;
  }
  return process.platform === "win32" ? "python" : "python3";
}

/** The interpreters whose check passed (their identities, see `checkIdentity`), newest first. */
const CHECKED_KEY = "ivycheck.checkedInterpreters";
const CHECKED_KEEP = 8;
let state: vscode.Memento | undefined;

/** The file `command` runs: the path given, or the first match on `PATH` for a bare name. */
function findExecutable(command: string, env: NodeJS.ProcessEnv): string | undefined {
  if (command.includes("/") || command.includes("\\")) {
    return path.resolve(command);
  }
  const names = process.platform === "win32" ? [command, `${command}.exe`] : [command];
  for (const directory of (env.PATH ?? "").split(path.delimiter)) {
    for (const name of directory ? names : []) {
      const candidate = path.join(directory, name);
      try {
        if (fs.statSync(candidate).isFile()) {
          return candidate;
        }
      } catch {
        // not in this directory
      }
    }
  }
  return undefined;
}

/**
 * What the interpreter check's answer depends on, as one string: the interpreter file
 * (through symbolic links: its size and modification time), the `pyvenv.cfg` of a virtual
 * environment it is in, the import strategy, the launcher and the bundles of this copy of
 * the extension. `undefined` when the interpreter cannot be found (the check then runs, and
 * says why it cannot start).
 */
function checkIdentity(
  interpreter: string,
  strategy: string,
  launcher: string,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const found = findExecutable(interpreter, env);
  if (found === undefined) {
    return undefined;
  }
  try {
    const real = fs.realpathSync(found);
    const stat = fs.statSync(real);
    const parts = [found, real, stat.size, stat.mtimeMs, strategy];
    const venvConfig = path.join(path.dirname(path.dirname(found)), "pyvenv.cfg");
    parts.push(fs.existsSync(venvConfig) ? fs.statSync(venvConfig).mtimeMs : "-");
    const libs = path.join(path.dirname(path.dirname(launcher)), "libs");
    parts.push(launcher, fs.statSync(launcher).mtimeMs);
    parts.push(...(fs.existsSync(libs) ? fs.readdirSync(libs).sort() : []));
    return JSON.stringify(parts);
  } catch {
    return undefined;
  }
}

/**
 * Whether the check passed before for `identity` with the bundled copy serving, and that
 * copy (`bundled/libs/<tag>`) is still there. A pass of the interpreter's own ivycheck
 * (`fromEnvironment`, or no bundle for its Python) is never taken for granted: a `pip
 * uninstall` changes nothing the identity covers.
 */
function checkedBefore(identity: string | undefined, launcher: string): boolean {
  const entry = (state?.get<string[]>(CHECKED_KEY) ?? []).find((k) => k.startsWith(`${identity}\n`));
  const tag = entry?.split("\n")[1];
  return identity !== undefined && !!tag && fs.existsSync(path.join(path.dirname(path.dirname(launcher)), "libs", tag));
}

/** Remember a pass of the bundled copy (`served`: the check's `bundled <tag>`); forget otherwise. */
function rememberChecked(identity: string | undefined, served: string | undefined): void {
  if (identity === undefined || state === undefined) {
    return;
  }
  const known = (state.get<string[]>(CHECKED_KEY) ?? []).filter((k) => !k.startsWith(`${identity}\n`));
  const tag = served?.trim().match(/^bundled (\S+)$/)?.[1];
  void state.update(CHECKED_KEY, (tag ? [`${identity}\n${tag}`, ...known] : known).slice(0, CHECKED_KEEP));
}

/**
 * Whether `command args` can start the server: the launcher's `--check` (or an import of
 * ivycheck) says why not on stderr, and on success which copy would serve on stdout.
 * Checked before the language client starts, because a server that exits before answering
 * `initialize` leaves vscode-languageclient with promise rejections it does not handle
 * itself (and several error notifications of its own).
 */
function checkServer(
  command: string,
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv },
): Promise<{ problem?: string; served?: string }> {
  return new Promise((resolve) => {
    childProcess.execFile(command, args, { ...options, timeout: 30000 }, (err, stdout, stderr) => {
      resolve(err ? { problem: String(stderr).trim() || errorText(err) } : { served: String(stdout) });
    });
  });
}

async function startClient(): Promise<void> {
  if (client) {
    return;
  }
  const config = vscode.workspace.getConfiguration(SECTION, firstWorkspaceFolder()?.uri);
  if (!config.get<boolean>("enable", true)) {
    log("ivycheck.enable is false: server not started");
    return;
  }
  const interpreter = await resolveInterpreter(config);
  const launch = launchFor(config, interpreter, extensionPath);
  const { args, strategy, launcher, bundled, cwd } = launch;
  timings = launch.logLevel === "debug";
  const processOptions = { ...(cwd ? { cwd } : {}), env: launch.env };
  // The check costs a Python start (up to seconds on a busy machine) before the server's
  // own: it is skipped when it passed before for this interpreter, unchanged, with this
  // copy of the extension. Should the server then fail to start, the check runs and
  // reports why.
  const check = bundled ? [launcher, "--check"] : ["-c", "import ivycheck.lsp.cli"];
  const identity = bundled ? checkIdentity(interpreter, strategy, launcher, processOptions.env) : undefined;
  // A shared server (shared.ts) that greets this window serves it at once: it is a running
  // ivycheck, no check needed. Busy with another window: a server of this window's own.
  const { socket, problem: sharedProblem } = usableSocket(config, launch);
  if (sharedProblem !== undefined) {
    log(`shared server not used: ${sharedProblem}`);
  }
  const earlyShared = takeEarlyShared(launch, socket);
  let connected: SharedOutcome;
  if (earlyShared !== undefined) {
    const { outcome, started, replaced } = await earlyShared.connecting;
    connected = outcome;
    logReplaced(replaced);
    timing(
      started !== undefined
        ? "the shared server was started as the extension loaded"
        : "connecting to the shared server as the extension loaded",
      earlyShared.at,
    );
  } else if (socket !== undefined) {
    connected = await connectShared(socket);
  }
  const greeted = connected !== undefined && connected !== "busy" ? connected : undefined;
  if (connected === "busy") {
    log("the shared server serves another window: this window starts a server of its own");
  }
  const skipped = greeted !== undefined || checkedBefore(identity, launcher);
  // The process started as the bundle loaded (see early.ts) serves if it is this one and
  // no check is due; otherwise it is stopped here.
  const earlyStart = takeEarly(skipped && socket === undefined ? launch : undefined);
  let serverOptions: ServerOptions;
  if (socket !== undefined && connected !== "busy") {
    serverOptions = serveShared(greeted, launch, socket);
  } else if (earlyStart) {
    serverOptions = serveEarly(earlyStart, launch);
  } else {
    serverOptions = { command: interpreter, args, transport: TransportKind.stdio, options: processOptions };
  }

  const watchers = [
    vscode.workspace.createFileSystemWatcher("**/pyproject.toml"),
    vscode.workspace.createFileSystemWatcher("**/*.py"),
  ];

  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "python" },
      { scheme: "untitled", language: "python" },
    ],
    synchronize: {
      configurationSection: SECTION,
      fileEvents: watchers,
    },
    outputChannel: output,
    traceOutputChannel: output,
    middleware: timings ? firstDiagnosticsMarks() : {},
  };

  log(
    `${greeted ? `connected to the shared server (pid ${greeted.pid}, ivycheck ${greeted.version}) of` : "starting"}: ` +
      `${[interpreter, ...args].map(quoteArg).join(" ")}${socket && !greeted ? ` --shared ${socket}` : ""}` +
      `${bundled ? ` (importStrategy ${strategy})` : " (no bundled server in this build)"}` +
      `${cwd ? ` (cwd ${cwd})` : ""}`,
  );
  const next = new IvycheckClient(SECTION, "ivycheck", serverOptions, clientOptions);
  client = next;
  try {
    if (greeted) {
      timing(`greeted by the shared server (pid ${greeted.pid})`, greeted.at);
    } else if (skipped) {
      timing("interpreter check skipped (it passed before for this interpreter)");
    } else {
      const { problem, served } = await checkServer(interpreter, check, processOptions);
      rememberChecked(identity, served);
      if (problem !== undefined) {
        throw new StartError(problem);
      }
      timing("interpreter checked");
    }
    if (earlyStart) {
      timing("the server process was started as the extension loaded", earlyStart.at);
    } else if (!greeted) {
      timing(socket !== undefined ? "connecting to or starting the shared server" : "starting the server process");
    }
    await next.start();
    timing("server answered initialize");
  } catch (failure) {
    let err = failure;
    if (skipped && !(err instanceof StartError)) {
      rememberChecked(identity, undefined);
      const { problem } = await checkServer(interpreter, check, processOptions);
      if (problem !== undefined) {
        err = new StartError(problem);
      }
    }
    client = undefined;
    watchers.forEach((w) => w.dispose());
    showStartError(startErrorMessage(interpreter, bundled, err));
    try {
      await next.dispose();
    } catch {
      // already failed; nothing more to clean up
    }
    return;
  }
  clearStartError();
  // The watchers live as long as this client; stopClient disposes them.
  clientWatchers = watchers;
}

/**
 * The language client's server: the early process the first time; a new one of the same
 * command if the client starts it again (after a crash).
 */
function serveEarly(earlyStart: EarlyStart, launch: Launch): ServerOptions {
  let first: EarlyStart | undefined = earlyStart;
  return async (): Promise<childProcess.ChildProcess> => {
    const started = first?.process ?? spawnServer(launch).process;
    first = undefined;
    handedProcess = started;
    return started;
  };
}

/**
 * The language client's server through the shared server's socket: the connection made
 * already, if any, the first time; else (and when the client starts it again after the
 * connection dropped) a new connection, starting the server if none accepts. Should that
 * fail (the server cannot start, or another window holds it), a server of this window's
 * own over stdio.
 */
function serveShared(first: SharedConnection | undefined, launch: Launch, socket: string): ServerOptions {
  let connection = first;
  return async (): Promise<childProcess.ChildProcess | StreamInfo> => {
    let found: SharedOutcome = connection;
    connection = undefined;
    if (found === undefined) {
      const { outcome, replaced } = await connectOrStart(launch, socket);
      found = outcome;
      logReplaced(replaced);
    }
    if (found === undefined || found === "busy") {
      log(
        found === "busy"
          ? "the shared server serves another window: this window starts a server of its own"
          : `the shared server did not start (its log: ${socket}.log): this window starts a server of its own`,
      );
      sharedPid = undefined;
      const started = spawnServer(launch).process;
      handedProcess = started;
      return started;
    }
    sharedPid = found.pid;
    timing(`connected to the shared server (pid ${found.pid})`);
    found.socket.resume();
    return { reader: found.socket, writer: found.socket };
  };
}

/** Say that the shared server `replaced` ran code no longer on disk, so a new one was started. */
function logReplaced(replaced: number | undefined): void {
  if (replaced !== undefined) {
    log(
      `the shared server (pid ${replaced}) ran ivycheck code changed on disk since it started: ` +
        "it exited, and a new one was started",
    );
  }
}

/** The shared server this window is connected to (the restart command stops it). */
let sharedPid: number | undefined;

/**
 * The process last handed to the language client by `serveEarly`: the client stops it
 * with `shutdown` and `exit` but, unlike a process it started itself, does not kill it if
 * it is still running 2 s later; `stopClient` does.
 */
let handedProcess: childProcess.ChildProcess | undefined;

/**
 * Middleware that marks the first document this client sends the server (`didOpen`), its
 * first diagnostics request (a pull) and the first diagnostics it receives (pulled or
 * pushed): between a file opened in the editor and its squiggle, the server's share.
 */
function firstDiagnosticsMarks(): Middleware {
  let marked = false;
  let opened = false;
  let pulled = false;
  const mark = (uri: vscode.Uri, count: number): void => {
    if (!marked && count > 0) {
      marked = true;
      timing(`first diagnostics received (${count} for ${path.basename(uri.fsPath)})`);
    }
  };
  return {
    didOpen: (document, next) => {
      if (!opened) {
        opened = true;
        timing(`first didOpen sent (${path.basename(document.uri.fsPath)})`);
      }
      return next(document);
    },
    provideDiagnostics: async (document, previousResultId, token, next) => {
      if (!pulled) {
        pulled = true;
        const uri = document instanceof vscode.Uri ? document : document.uri;
        timing(`first diagnostics pull sent (${path.basename(uri.fsPath)})`);
      }
      const report = await next(document, previousResultId, token);
      const uri = document instanceof vscode.Uri ? document : document.uri;
      mark(uri, report && report.kind === "full" ? report.items.length : 0);
      return report;
    },
    handleDiagnostics: (uri, diagnostics, next) => {
      mark(uri, diagnostics.length);
      next(uri, diagnostics);
    },
  };
}

/** A reason the interpreter check gave (the launcher's own message, or Python's). */
class StartError extends Error {}

/**
 * One message, with one piece of advice: the launcher's (it knows the interpreter's version,
 * the bundled versions and the import strategy), else what the extension knows: the
 * interpreter could not be run at all.
 */
function startErrorMessage(interpreter: string, bundled: boolean, err: unknown): string {
  const text = errorText(err).replace(/^ivycheck: /, "");
  if (err instanceof StartError && bundled && !/ENOENT|EACCES/.test(text)) {
    return `ivycheck: the language server cannot start: ${text}`;
  }
  if (/ENOENT|EACCES|not found/i.test(text)) {
    return (
      `ivycheck: the interpreter "${interpreter}" could not be run (${text}). ` +
      `Set "ivycheck.interpreter" to a Python 3.11 or newer.`
    );
  }
  return (
    `ivycheck: the language server could not start with "${interpreter}" (${text}). ` +
    (bundled
      ? `Set "ivycheck.interpreter" to a Python 3.11 or newer.`
      : `This build bundles no server: install ivycheck into that interpreter ` +
        `(pip install /path/to/a/clone/of/ivycheck), or set "ivycheck.interpreter".`)
  );
}

function showStartError(message: string): void {
  log(message);
  if (status) {
    status.severity = vscode.LanguageStatusSeverity.Error;
    status.text = "ivycheck: not running";
    status.detail = message;
  }
  const shown = vscode.window.showErrorMessage(message, "Open Settings", "Show Output");
  openError = shown;
  void shown.then((choice) => {
    if (openError === shown) {
      openError = undefined;
    }
    if (choice === "Open Settings") {
      void vscode.commands.executeCommand("workbench.action.openSettings", "ivycheck.");
    } else if (choice === "Show Output") {
      output?.show(true);
    }
  });
}

/**
 * The server runs again: the status item says so and the error notification of the last
 * failure, if the user has not closed it yet, is hidden (the API cannot close one
 * notification; hiding the toasts leaves every notification in the notification centre).
 */
function clearStartError(): void {
  if (status) {
    status.severity = vscode.LanguageStatusSeverity.Information;
    status.text = "ivycheck";
    status.detail = "language server running";
  }
  if (openError !== undefined) {
    openError = undefined;
    log("the server runs again: the error notification is hidden");
    void vscode.commands.executeCommand("notifications.hideToasts");
  }
}

async function stopClient(): Promise<void> {
  const current = client;
  client = undefined;
  const watchers = clientWatchers;
  clientWatchers = [];
  const handed = handedProcess;
  handedProcess = undefined;
  sharedPid = undefined;
  if (current) {
    log("stopping server");
    try {
      await current.stop();
    } catch (err) {
      log(`stop: ${errorText(err)}`);
    }
  }
  if (handed) {
    setTimeout(() => {
      if (handed.exitCode === null && handed.signalCode === null) {
        handed.kill();
      }
    }, 2000);
  }
  watchers.forEach((w) => w.dispose());
}

function quoteArg(arg: string): string {
  return /[\s"']/.test(arg) ? JSON.stringify(arg) : arg;
}

async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "python") {
    void vscode.window.showInformationMessage("ivycheck: open a Python file to fix.");
    return;
  }
  if (!client) {
    void vscode.window.showWarningMessage(
      "ivycheck: the language server is not running (see the \"ivycheck\" output).",
    );
    return;
  }
  await vscode.commands.executeCommand("editor.action.codeAction", {
    kind: FIX_ALL_KIND,
    apply: "first",
  });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath ?? "";
  output = vscode.window.createOutputChannel("ivycheck");
  context.subscriptions.push(output);
  state = context.globalState;
  const level = vscode.workspace.getConfiguration(SECTION).get<string>("logLevel", "warning");
  timings = level === "debug";
  // Where the time to the first diagnostic goes, after a window reload: the extension
  // host's start to this activation, then the interpreter check and the server's start.
  timing("activated");
  status = vscode.languages.createLanguageStatusItem("ivycheck.status", { language: "python" });
  status.name = "ivycheck";
  status.text = "ivycheck";
  status.command = {
    title: "Settings",
    command: "workbench.action.openSettings",
    arguments: ["ivycheck."],
  };
  context.subscriptions.push(status);

  context.subscriptions.push(
    vscode.commands.registerCommand("ivycheck.restart", () =>
      enqueue(async () => {
        const shared = sharedPid;
        await stopClient();
        if (shared !== undefined) {
          // A real restart: a new process, not this window connecting to the same one.
          log(`stopping the shared server (pid ${shared})`);
          await stopShared(shared);
        }
        await startClient();
      }),
    ),
    vscode.commands.registerCommand("ivycheck.fixAll", fixAll),
  );

  // Any ivycheck.* setting change restarts the server, or stops it when
  // ivycheck.enable is false. ivycheck.trace.server is applied live by the
  // language client, so it alone does not restart. Changes are debounced.
  let pending: NodeJS.Timeout | undefined;
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SECTION)) {
        return;
      }
      const keys = [
        "enable",
        "interpreter",
        "importStrategy",
        "args",
        "sharedServer",
        "select",
        "ignore",
        "logLevel",
      ];
      if (!keys.some((k) => event.affectsConfiguration(`${SECTION}.${k}`))) {
        return;
      }
      if (pending) {
        clearTimeout(pending);
      }
      pending = setTimeout(() => {
        pending = undefined;
        log("settings changed: restarting");
        void enqueue(async () => {
          await stopClient();
          await startClient();
        });
      }, 250);
    }),
    { dispose: () => pending && clearTimeout(pending) },
  );

  // The server starts first: nothing the extension awaits comes before it. Waiting for the
  // Python extension to activate (seconds, in a window that restores many extensions) is
  // needed only when `ivycheck.interpreter` is empty, and `resolveInterpreter` then does it.
  const started = enqueue(() => startClient());
  void followPythonInterpreter(context);
  await started;
}

/**
 * A different interpreter picked in the Python extension restarts the server when
 * `ivycheck.interpreter` is not set. Set up after the server's start has been queued, so
 * that the Python extension's activation never delays it.
 */
async function followPythonInterpreter(context: vscode.ExtensionContext): Promise<void> {
  const pythonExt = vscode.extensions.getExtension("ms-python.python");
  if (pythonExt) {
    try {
      if (!pythonExt.isActive) {
        await pythonExt.activate();
      }
      const onChange = (pythonExt.exports as any)?.environments?.onDidChangeActiveEnvironmentPath;
      if (typeof onChange === "function") {
        context.subscriptions.push(
          onChange(() => {
            const configured = vscode.workspace
              .getConfiguration(SECTION, firstWorkspaceFolder()?.uri)
              .get<string>("interpreter", "")
              .trim();
            if (!configured) {
              log("Python interpreter changed: restarting");
              void enqueue(async () => {
                await stopClient();
                await startClient();
              });
            }
          }),
        );
      }
    } catch (err) {
      log(`Python extension not usable: ${errorText(err)}`);
    }
  }
}

export async function deactivate(): Promise<void> {
  takeEarly(undefined); // not taken if activate() did not get to start the server
  takeEarlyShared(undefined, undefined);
  await enqueue(stopClient);
}
