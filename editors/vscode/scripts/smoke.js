#!/usr/bin/env node
// Smoke test of the built bundle without VS Code: loads out/extension.js with a
// permissive stub of the `vscode` module, activates it against a real
// `<python> -m ivycheck lsp`, checks the initialize handshake and the
// workspace/configuration answer, then deactivates (shutdown/exit).
//
//   node scripts/smoke.js [PYTHON] [BUNDLE]     (defaults: python3, out/extension.js)
"use strict";
const Module = require("module");
const path = require("path");

const python = process.argv[2] || "python3";
const bundle = path.resolve(process.argv[3] || path.join(__dirname, "..", "out", "extension.js"));
const settings = { interpreter: python, enable: true, args: [], select: [], ignore: ["IVY006"], trace: { server: "verbose" } };
const lines = [];

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
  extensions: { getExtension: () => undefined, all: [], onDidChange: noop },
  commands: withFallback({ registerCommand: (id) => { lines.push(`[command] ${id}`); return { dispose() {} }; } }, "commands"),
}, "vscode");

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === "vscode" ? "vscode" : resolve.call(this, request, ...rest);
};
require.cache.vscode = { id: "vscode", filename: "vscode", loaded: true, exports: vscodeStub };

(async () => {
  const ext = require(bundle);
  const context = { subscriptions: [], extensionPath: path.dirname(bundle), globalState: { get() {}, update() {} }, workspaceState: { get() {}, update() {} } };
  await ext.activate(context);
  await new Promise((r) => setTimeout(r, 1500));
  await ext.deactivate();
  const log = lines.join("\n");
  const checks = {
    "commands registered": log.includes("[command] ivycheck.restart") && log.includes("[command] ivycheck.fixAll"),
    "server started": log.includes("[client] server started"),
    "initialize answered": log.includes("Received response 'initialize"),
    "settings sent": log.includes('"IVY006"'),
    "shutdown answered": log.includes("Received response 'shutdown"),
  };
  let failed = 0;
  for (const [name, ok] of Object.entries(checks)) {
    console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
    if (!ok) failed += 1;
  }
  if (failed) console.log(`--- client log ---\n${log}`);
  process.exit(failed ? 1 : 0);
})().catch((err) => { console.error(err); console.log(lines.join("\n")); process.exit(1); });
