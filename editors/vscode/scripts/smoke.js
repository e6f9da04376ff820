#!/usr/bin/env node
// Smoke test of the built bundle without VS Code: loads out/extension.js with a
// permissive stub of the `vscode` module, activates it against a real
// server started by `<python> bundled/tool/launch.py lsp` (or `-m ivycheck lsp` when the
// build has no bundled/), checks the initialize handshake and the
// workspace/configuration answer, then deactivates (shutdown/exit).
// When the server cannot start (no interpreter, nothing bundled for it), the extension
// must not crash: it reports the failure; the smoke test prints that report and exits 2,
// or 0 with --expect-missing (which checks exactly that behaviour).
//
//   node scripts/smoke.js [--expect-missing] [PYTHON] [BUNDLE]
//       (defaults: python3, out/extension.js; IVYCHECK_SMOKE_STRATEGY sets importStrategy)
"use strict";
const Module = require("module");
const fs = require("fs");
const os = require("os");
const path = require("path");

// The shared servers' sockets in a runtime folder of this run's own (removed at the end;
// a server left running exits 10 s after its last client), not in ~/.cache/ivycheck/lsp.
const runtime = fs.mkdtempSync(path.join(os.tmpdir(), "ivycheck-smoke-"));
process.env.XDG_RUNTIME_DIR = runtime;
process.on("exit", () => fs.rmSync(runtime, { recursive: true, force: true }));

const argv = process.argv.slice(2);
const expectMissing = argv[0] === "--expect-missing";
if (expectMissing) argv.shift();
const python = argv[0] || "python3";
const bundle = path.resolve(argv[1] || path.join(__dirname, "..", "out", "extension.js"));
const importStrategy = process.env.IVYCHECK_SMOKE_STRATEGY || "useBundled";
const settings = { interpreter: python, importStrategy, enable: true, args: [], select: [], ignore: ["IVY006"], logLevel: "debug", trace: { server: "verbose" } };
const lines = [];
const commands = {};

function thing(name) {
  return new Proxy(function () {}, {
    get(_t, prop) {
      if (prop === "then") return undefined;
      if (prop === Symbol.iterator) return function* () {};
      if (prop === Symbol.toPrimitive) return () => "";
      if (prop === "length") return 0;
      if (prop === "dispose") return () => {};
      return thing(`${name}.${String(prop)}`);
    },
    apply: () => thing(`${name}()`),
    construct: () => thing(`new ${name}`),
  });
}
const withFallback = (obj, name) => new Proxy(obj, { get: (t, p) => (p in t ? t[p] : thing(`${name}.${String(p)}`)) });
const noop = () => ({ dispose() {} });
// A Python extension that is still activating (as in a window restoring many extensions):
// with `ivycheck.interpreter` set, the server must start without waiting for it.
let pythonActivated = false;
let finishPythonActivation = () => {};
const pythonExtension = {
  isActive: false,
  exports: undefined,
  activate: () => new Promise((r) => { finishPythonActivation = () => { pythonActivated = true; r(); }; }),
};
class EventEmitter {
  constructor() { this.listeners = []; this.event = (f) => { this.listeners.push(f); return { dispose() {} }; }; }
  fire(e) { this.listeners.forEach((f) => f(e)); }
  dispose() {}
}
class Disposable {
  constructor(f) { this.f = f; }
  dispose() { if (this.f) this.f(); }
  static from(...ds) { return new Disposable(() => ds.forEach((d) => d && d.dispose && d.dispose())); }
}
const output = {
  name: "ivycheck", show() {}, clear() {}, hide() {}, replace() {}, dispose() {},
  append: (s) => lines.push(s), appendLine: (s) => lines.push(s),
};
function lookup(section, key, dflt) {
  const parts = [...(section ? section.split(".") : []), ...(key ? key.split(".") : [])];
  if (parts[0] !== "ivycheck") return dflt;
  let v = settings;
  for (const p of parts.slice(1)) v = v && typeof v === "object" ? v[p] : undefined;
  return v === undefined ? dflt : v;
}
const vscodeStub = withFallback({
  version: "1.90.0",
  env: { appName: "Visual Studio Code", language: "en", machineId: "smoke", sessionId: "smoke", uiKind: 1, appRoot: "/", shell: "" },
  EventEmitter, Disposable,
  window: withFallback({
    createOutputChannel: () => output,
    showErrorMessage: async (m) => { lines.push(`[error message] ${m}`); },
    showWarningMessage: async (m) => { lines.push(`[warning message] ${m}`); },
    showInformationMessage: async (m) => { lines.push(`[info message] ${m}`); },
    activeTextEditor: undefined, visibleTextEditors: [],
    tabGroups: { all: [], onDidChangeTabs: noop, onDidChangeTabGroups: noop },
  }, "window"),
  workspace: withFallback({
    workspaceFolders: undefined, textDocuments: [], notebookDocuments: [],
    getConfiguration: (section) => ({ get: (k, d) => lookup(section, k, d), has: () => true, inspect: () => undefined, update: async () => {} }),
    createFileSystemWatcher: () => ({ onDidCreate: noop, onDidChange: noop, onDidDelete: noop, dispose() {} }),
  }, "workspace"),
  extensions: { getExtension: (id) => (id === "ms-python.python" ? pythonExtension : undefined), all: [], onDidChange: noop },
  commands: withFallback({ registerCommand: (id, f) => { lines.push(`[command] ${id}`); commands[id] = f; return { dispose() {} }; } }, "commands"),
  languages: withFallback({ createLanguageStatusItem: () => ({ dispose() {} }) }, "languages"),
  LanguageStatusSeverity: { Information: 0, Warning: 1, Error: 2 },
}, "vscode");

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === "vscode" ? "vscode" : resolve.call(this, request, ...rest);
};
require.cache.vscode = { id: "vscode", filename: "vscode", loaded: true, exports: vscodeStub };

// VS Code's extension host logs an unhandled rejection instead of dying; so does this
// test, and it fails on one: the extension must handle every failure it can cause.
const unhandled = [];
process.on("unhandledRejection", (err) => { unhandled.push(String(err && err.stack || err)); });

(async () => {
  const ext = require(bundle);
  const context = { subscriptions: [], extensionPath: path.resolve(path.dirname(bundle), ".."), globalState: { get() {}, update() {} }, workspaceState: { get() {}, update() {} } };
  await ext.activate(context);
  const startedBeforePython = !pythonActivated;
  finishPythonActivation();
  await new Promise((r) => setTimeout(r, 1500));
  // A shared server (ivycheck.sharedServer) is stopped by the restart command, and a new
  // one serves: a real restart, not a reconnection to the same process.
  const servedBy = () => [...lines.join("\n").matchAll(/connected to the shared server \(pid (\d+)/g)].map((m) => m[1]);
  const before = servedBy();
  if (before.length) {
    await commands["ivycheck.restart"]();
    await new Promise((r) => setTimeout(r, 500));
  }
  const after = servedBy();
  // A second window while the first holds the shared server (a fresh copy of the bundle:
  // its own module state, as another extension host has): told "busy", it starts a
  // server of its own and is served.
  const answered = () => lines.filter((l) => l.includes("[client] timing: server answered initialize")).length;
  const answeredBefore = answered();
  let secondWindow = false;
  if (before.length) {
    delete require.cache[require.resolve(bundle)];
    const second = require(bundle);
    await second.activate({ ...context, subscriptions: [] });
    await new Promise((r) => setTimeout(r, 500));
    secondWindow = answered() > answeredBefore && lines.some((l) => l.includes("serves another window"));
    await second.deactivate();
  }
  await ext.deactivate();
  // A reload after the ivycheck the shared server runs changed on disk (an upgrade, an
  // edit of an editable install; here a bundled module's mtime): the server says "stale"
  // and exits, and the reloaded window starts a new one and is served by it.
  const bundledModules = fs.existsSync(path.join(context.extensionPath, "bundled", "libs"))
    ? fs.readdirSync(path.join(context.extensionPath, "bundled", "libs")).map((tag) => path.join(context.extensionPath, "bundled", "libs", tag, "ivycheck", "lsp", "shared.py")).filter((f) => fs.existsSync(f))
    : [];
  let staleReplaced;
  if (before.length && importStrategy === "useBundled" && bundledModules.length) {
    const old = servedBy().at(-1);
    const answeredStale = answered();
    const now = new Date();
    bundledModules.forEach((f) => fs.utimesSync(f, now, now));
    delete require.cache[require.resolve(bundle)];
    const reloaded = require(bundle);
    await reloaded.activate({ ...context, subscriptions: [] });
    for (let waited = 0; answered() === answeredStale && waited < 30000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    let oldGone = true;
    try { process.kill(Number(old), 0); oldGone = false; } catch { /* gone */ }
    const serving = servedBy().at(-1);
    staleReplaced = oldGone && serving !== old && answered() > answeredStale && lines.some((l) => l.includes(`the shared server (pid ${old}) ran ivycheck code changed on disk`));
    await reloaded.deactivate();
  }
  const log = lines.join("\n");
  const report = lines.find((l) => l.startsWith("[error message] ivycheck: "));
  if (unhandled.length) {
    console.log(`FAIL unhandled rejection(s):\n${unhandled.join("\n")}`);
    process.exit(1);
  }
  if (!log.includes("[client] timing: server answered initialize")) {
    const reported = report !== undefined && log.includes("[command] ivycheck.restart");
    console.log(`${reported ? "ok  " : "FAIL"} server missing, reported: ${report || "(no message shown)"}`);
    if (!reported) console.log(`--- client log ---\n${log}`);
    process.exit(reported ? (expectMissing ? 0 : 2) : 1);
  }
  if (expectMissing) {
    console.log("FAIL the server started although it was expected to be missing");
    process.exit(1);
  }
  const checks = {
    "commands registered": log.includes("[command] ivycheck.restart") && log.includes("[command] ivycheck.fixAll"),
    "server started": log.includes("[client] timing: server answered initialize"),
    "server started before the Python extension finished activating": startedBeforePython,
    // A shared server started for this run imports its modules; one left running by an
    // earlier run (it stays 10 s) marks the client's connection instead.
    "server timing marks": log.includes("timing: server modules imported") || /timing: server client \d+ connected/.test(log),
    "initialize answered": log.includes("Received response 'initialize"),
    "settings sent": log.includes('"IVY006"'),
    "shutdown answered": log.includes("Received response 'shutdown"),
  };
  if (before.length) {
    const [first, last] = [before[before.length - 1], after[after.length - 1]];
    let gone = true;
    try { process.kill(Number(first), 0); gone = false; } catch { /* gone */ }
    checks["restart stops the shared server and a new one serves"] = gone && last !== first && log.includes(`stopping the shared server (pid ${first})`);
    checks["a second window at once gets a server of its own"] = secondWindow;
  }
  if (staleReplaced !== undefined) {
    checks["a server whose code changed on disk is replaced at the next window"] = staleReplaced;
  }
  let failed = 0;
  for (const [name, ok] of Object.entries(checks)) {
    console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
    if (!ok) failed += 1;
  }
  if (failed) console.log(`--- client log ---\n${log}`);
  process.exit(failed ? 1 : 0);
})().catch((err) => { console.error(err); console.log(lines.join("\n")); process.exit(1); });
