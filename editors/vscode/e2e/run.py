"""The extension in a real VS Code: code-server (VS Code in the browser) with the built
.vsix installed, driven in headless Chromium by Playwright, as a person would use it.

    python e2e/run.py --vsix ivycheck-0.1.0.vsix --code-server .e2e/.../code-server
        --node .e2e/node/.../node --python python3 [--chromium /usr/bin/chromium]

What it checks, each in the running editor: the diagnostic of an Ivy-style file appears
(its squiggle), hover shows the rule's documentation, the quick fix writes the fixed text
(read back from disk after saving), a function typed into the file gets its diagnostic,
the diagnostic is back quickly after a window reload, a bogus interpreter shows the error
and a good one clears it, and the output channel holds no error line and no library noise.
It prints the times (to the first diagnostic after opening, from the last keystroke to the
new diagnostic, after a reload) and exits non-zero on the first failed check.

With ``--corpus DIR`` (``make test-vscode`` passes the shared Ivy snapshot when it is there)
it then opens a copy of that real project, once as it is (no root marker) and once with a
``pyproject.toml``, each with a file of known mistakes: the time from opening that file
to its first squiggle on the project's first open (no cache), whether the indexing
progress showed in the status bar, the time from a window reload (the file restored) to
its squiggle, and the CPU the server and the extension host use while the window is idle.

Everything it starts runs with a ``HOME`` of its own (a temporary folder): code-server's
``~/.config/code-server`` and ``~/.local/share/code-server`` and Chromium's
``~/.config/chromium`` go there and are removed with it.

Everything binds to 127.0.0.1; every process it starts (code-server and its children,
Chromium) is stopped on exit. Chromium runs with the flags this machine needs (no
background networking), a new empty profile, and is never downloaded.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright

API_FILE = "ivy/functional/ivy/elementwise.py"
BAD = """\
@to_native_arrays_and_back
@handle_out_argument
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""
FIXED = BAD.replace(
    "@to_native_arrays_and_back\n@handle_out_argument\n",
    "@handle_out_argument\n@to_native_arrays_and_back\n",
)
TYPED = (
    "@to_native_arrays_and_back\n@handle_out_argument\n"
    "def cos(x, /, *, out=None): return current_backend(x).cos(x, out=out)\n"
)
TYPED_FINDING = """() => {
  const lines = [...document.querySelectorAll('.view-lines .view-line')]
    .filter((line) => line.textContent.trim() === '@handle_out_argument');
  if (lines.length < 2) return false;
  const top = Math.max(...lines.map((line) => parseFloat(line.style.top)));
  return [...document.querySelectorAll('.view-overlays > div')].some(
    (overlay) => parseFloat(overlay.style.top) === top
      && overlay.querySelector('.squiggly-error, .squiggly-warning'));
}"""
PASTED = TYPED.replace("cos", "sin")
MISTAKES_FILE = "ivy/functional/ivy/ivycheck_e2e_mistakes.py"
MISTAKES = (
    BAD
    + """

@handle_out_argument
def sinh(x, out=None):
    return current_backend(x).sinh(x, out=out)
"""
)
"""Known mistakes: IVY005 (its project's wrapper order, read from the index), IVY008 (the
file's own), and the cross-file IVY017 of each (no backend defines them)."""
IDLE_SECONDS = 20.0
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SQUIGGLE = ".view-overlays .squiggly-error, .view-overlays .squiggly-warning"
# When the first squiggle enters the page's DOM (wall-clock ms, in the page): the moment
# itself, where the harness's polling (a browser round trip each) finds it some time later.
OBSERVE_SQUIGGLE = """(selector) => {
  window.__ivycheckSquiggleAt = null;
  const seen = () => {
    if (window.__ivycheckSquiggleAt === null && document.querySelector(selector)) {
      window.__ivycheckSquiggleAt = Date.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(seen);
  observer.observe(document.body, { childList: true, subtree: true, attributes: true });
  seen();
}"""
TIMES: dict[str, float] = {}


def step(name: str) -> None:
    print(f"[e2e] {name}", flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def write_settings(user_data: Path, settings: dict[str, Any]) -> None:
    folder = user_data / "User"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps(settings, indent=2))


@contextlib.contextmanager
def code_server(
    node: str, code_server_js: str, user_data: Path, extensions: Path, port: int
) -> Iterator[subprocess.Popen[bytes]]:
    log = open(user_data / "code-server.log", "wb")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [
            node,
            code_server_js,
            *("--bind-addr", f"127.0.0.1:{port}"),
            *("--auth", "none"),
            *("--user-data-dir", str(user_data)),
            *("--extensions-dir", str(extensions)),
            "--disable-telemetry",
            "--disable-update-check",
            "--disable-workspace-trust",
            "--disable-getting-started-override",
            "--ignore-last-opened",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stopped whole on exit
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(
                        f"code-server did not start; its log:\n{(user_data / 'code-server.log').read_text()}"
                    ) from None
                time.sleep(0.2)
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def wait_for(page: Page, what: str, predicate: Any, timeout: float = 60.0) -> float:
    """Poll ``predicate()`` until true; the monotonic time it became true."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return time.monotonic()
        if time.monotonic() > deadline:
            page.screenshot(path=str(ARTIFACTS / f"timeout-{what.replace(' ', '-')}.png"))
            if USER_DATA is not None:
                (ARTIFACTS / "output-channel.log").write_text(output_log(USER_DATA))
            raise SystemExit(f"FAILED: {what} (after {timeout:.0f} s)")
        page.wait_for_timeout(20)


def squiggles(page: Page) -> int:
    return page.locator(SQUIGGLE).count()


def command(page: Page, name: str) -> None:
    page.locator(".part.editor").first.click(position={"x": 300, "y": 400}, force=True)
    page.keyboard.press("F1")
    box = page.locator(".quick-input-widget input")
    box.wait_for(state="visible")
    box.fill(f">{name}")
    page.wait_for_timeout(300)
    page.keyboard.press("Enter")


def open_file(page: Page, relative: str) -> float:
    page.keyboard.press("Control+p")
    box = page.locator(".quick-input-widget input")
    box.wait_for(state="visible")
    box.fill(relative)
    page.locator(".quick-input-list .monaco-list-row").first.wait_for(state="visible")
    started = time.monotonic()
    page.keyboard.press("Enter")
    page.locator(".monaco-editor .view-lines").first.wait_for(state="visible")
    return started


def output_log(user_data: Path) -> str:
    found = sorted((user_data / "logs").rglob("*ivycheck*.log"), key=lambda p: p.stat().st_mtime)
    return "\n".join(p.read_text(errors="replace") for p in found)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--vsix", required=True)
    parser.add_argument("--code-server", required=True, help="code-server's out/node/entry.js")
    parser.add_argument("--node", required=True)
    parser.add_argument("--python", required=True, help="the interpreter the .vsix bundles for")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--artifacts", default="build/vscode-e2e")
    parser.add_argument(
        "--edit-seconds",
        type=float,
        default=20.0,
        help="how long to keep editing before the output channel is read (300: five minutes)",
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        help="a real project (the Ivy snapshot): time its first open, a reload and idle cost",
    )
    parser.add_argument(
        "--ready-open-delays",
        default="0,1,3",
        help="after the timed reload, reload with no editor open, wait until the server has "
        "answered `initialize`, then these many seconds, open the file and time it to its "
        "diagnostic; one reload per value, comma-separated ('' for none)",
    )
    args = parser.parse_args(argv)
    global ARTIFACTS, USER_DATA, EDIT_SECONDS, READY_OPEN_DELAYS
    EDIT_SECONDS = args.edit_seconds
    READY_OPEN_DELAYS = [float(v) for v in args.ready_open_delays.split(",") if v.strip()]
    ARTIFACTS = Path(args.artifacts).resolve()
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    python = os.path.abspath(
        shutil.which(args.python) or args.python
    )  # not relative to the workspace

    with tempfile.TemporaryDirectory(prefix="ivycheck-e2e-") as tmp:
        root = Path(tmp)
        # code-server, Chromium and the server they start write under HOME (and the XDG
        # folders, which default to it): a home of their own, removed with the rest.
        os.environ["HOME"] = str(root / "home")
        # XDG_RUNTIME_DIR too: the shared servers' sockets then live under that HOME as
        # well (~/.cache/ivycheck/lsp), where the end of the run finds and stops them.
        for variable in (
            "XDG_CONFIG_HOME",
            "XDG_DATA_HOME",
            "XDG_CACHE_HOME",
            "XDG_STATE_HOME",
            "XDG_RUNTIME_DIR",
        ):
            os.environ.pop(variable, None)
        # As on a user's machine: Python writes its caches (the server keeps the code
        # attrs and cattrs generate in ~/.cache/ivycheck, not written under this flag).
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        (root / "home").mkdir()
        user_data, extensions, workspace = root / "user", root / "extensions", root / "ws"
        USER_DATA = user_data
        (workspace / API_FILE).parent.mkdir(parents=True)
        (workspace / "pyproject.toml").write_text("[tool.ivycheck]\n")
        (workspace / API_FILE).write_text(BAD)
        settings = {
            "ivycheck.interpreter": python,
            "workbench.startupEditor": "none",
            "workbench.tips.enabled": False,
            "security.workspace.trust.enabled": False,
            "telemetry.telemetryLevel": "off",
            "update.mode": "none",
            "extensions.autoCheckUpdates": False,
            "extensions.autoUpdate": False,
            "workbench.enableExperiments": False,
            "editor.hover.delay": 100,
            "files.autoSave": "off",
            "chat.disableAIFeatures": True,
            # Typing must write what is typed: no completion takes an Enter.
            "editor.quickSuggestions": {"other": "off", "comments": "off", "strings": "off"},
            "editor.suggestOnTriggerCharacters": False,
            "editor.acceptSuggestionOnEnter": "off",
            "editor.wordBasedSuggestions": "off",
            "ivycheck.trace.server": os.environ.get("IVYCHECK_E2E_TRACE", "off"),
        }
        write_settings(user_data, settings)
        step(f"installing {args.vsix}")
        subprocess.run(
            [
                args.node,
                args.code_server,
                *("--user-data-dir", str(user_data)),
                *("--extensions-dir", str(extensions)),
                *("--install-extension", str(Path(args.vsix).resolve())),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        port = free_port()
        step(f"code-server on 127.0.0.1:{port}")
        with (
            code_server(args.node, args.code_server, user_data, extensions, port),
            sync_playwright() as pw,
        ):
            # A new, empty profile (Playwright passes it as --user-data-dir).
            browser = pw.chromium.launch_persistent_context(
                str(root / "chromium"),
                executable_path=args.chromium,
                headless=True,
                args=CHROMIUM_FLAGS,
                viewport={"width": 1400, "height": 900},
            )
            try:
                page = browser.pages[0] if browser.pages else browser.new_page()
                try:
                    run_checks(page, port, workspace, user_data, settings)
                    if args.corpus is not None:
                        for marker in (False, True):
                            corpus_checks(page, port, args.corpus, root, user_data, marker)
                except Exception:
                    page.screenshot(path=str(ARTIFACTS / "failure.png"))
                    (ARTIFACTS / "output-channel.log").write_text(output_log(user_data))
                    raise
            finally:
                browser.close()
        stop_shared_servers(root)
    print(json.dumps({"times_s": TIMES}), flush=True)
    return 0


def run_checks(
    page: Page, port: int, workspace: Path, user_data: Path, settings: dict[str, Any]
) -> None:
    page.goto(f"http://127.0.0.1:{port}/?folder={workspace}")
    page.locator(".monaco-workbench").wait_for(state="visible", timeout=120_000)
    page.wait_for_timeout(1000)

    step("open the file: its diagnostic appears")
    started = open_file(page, "elementwise.py")
    TIMES["open_to_first_diagnostic"] = (
        wait_for(page, "first diagnostic", lambda: squiggles(page) > 0, 120) - started
    )

    step("hover shows the rule")
    page.locator(SQUIGGLE).first.hover(force=True)  # the text above it takes the events
    hover = page.locator(".monaco-hover:visible")
    # The diagnostic's own hover text (with "IVY005") can be shown before the server's
    # answer (the rule's documentation) arrives: wait for the latter.
    wait_for(
        page,
        "hover with IVY005's documentation",
        lambda: "decorator-order" in (hover.first.inner_text() if hover.count() else ""),
    )
    text = hover.first.inner_text()
    assert "decorator-order" in text and "ivycheck --explain IVY005" in text, text
    page.keyboard.press("Escape")

    step("the quick fix writes the fixed text")
    page.locator(SQUIGGLE).first.click(force=True)
    page.keyboard.press("Control+.")
    actions = page.locator(".action-widget .monaco-list-row")
    actions.first.wait_for(state="visible")
    titles = actions.all_inner_texts()
    fix = next((i for i, t in enumerate(titles) if "IVY005" in t and "Suppress" not in t), None)
    assert fix is not None, titles
    actions.nth(fix).click()
    wait_for(page, "diagnostic gone after the fix", lambda: squiggles(page) == 0)
    page.keyboard.press("Control+s")
    wait_for(page, "fixed text on disk", lambda: (workspace / API_FILE).read_text() == FIXED)

    step("an edit's diagnostic follows")
    page.keyboard.press("Control+End")
    page.keyboard.type("\n")
    page.keyboard.press("Home")
    for number, line in enumerate(TYPED.splitlines()):
        if number:
            page.keyboard.press("Enter")
            page.keyboard.press("Home")
        page.keyboard.type(line, delay=20)
    typed = time.monotonic()
    # The typed function's own finding: a squiggle on its `@handle_out_argument` line (while
    # typing, a half-written line can have a syntax error's squiggle of its own).
    TIMES["edit_to_diagnostic"] = (
        wait_for(page, "diagnostic of the typed function", lambda: page.evaluate(TYPED_FINDING))
        - typed
    )
    # Typing completes the line early (brackets close themselves), so the finding can be
    # there before the last keystroke: time one edit too, a function pasted in one go.
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    pasted = time.monotonic()
    page.keyboard.insert_text(PASTED.rstrip("\n"))
    TIMES["paste_to_diagnostic"] = (
        wait_for(page, "diagnostic of the pasted function", lambda: page.evaluate(TYPED_FINDING))
        - pasted
    )
    page.keyboard.press("Control+s")
    expected = FIXED + "\n" + TYPED.rstrip("\n") + "\n" + PASTED.rstrip("\n")
    wait_for(page, "typed text on disk", lambda: (workspace / API_FILE).read_text() == expected)

    step("after a window reload the diagnostic is back")
    command(page, "Developer: Reload Window")
    reloaded = time.monotonic()
    page.wait_for_timeout(500)
    page.locator(".monaco-workbench").wait_for(state="visible", timeout=120_000)
    TIMES["reload_to_workbench"] = time.monotonic() - reloaded
    page.locator(".monaco-editor .view-lines", has_text="handle_out_argument").first.wait_for(
        state="visible", timeout=120_000
    )
    TIMES["reload_to_editor_shown"] = time.monotonic() - reloaded
    TIMES["reload_to_diagnostic"] = (
        wait_for(page, "diagnostic after reload", lambda: squiggles(page) > 0, 120) - reloaded
    )
    TIMES["editor_shown_to_diagnostic_after_reload"] = (
        TIMES["reload_to_diagnostic"] - TIMES["reload_to_editor_shown"]
    )

    step("a bogus interpreter shows the error; a good one clears it")
    # In the workspace's .vscode/settings.json, which VS Code watches (and overrides the user's).
    workspace_settings = workspace / ".vscode" / "settings.json"
    workspace_settings.parent.mkdir(exist_ok=True)
    workspace_settings.write_text(json.dumps({"ivycheck.interpreter": "/nonexistent/python3"}))
    toast = page.locator(".notification-toast", has_text="ivycheck")
    wait_for(page, "error notification", lambda: toast.count() > 0)
    message = toast.first.inner_text()
    assert "/nonexistent/python3" in message and "Open Settings" in message, message
    assert "<" not in message, message
    assert toast.count() > 0, "the error notification went before the server recovered"
    workspace_settings.write_text(
        json.dumps({"ivycheck.interpreter": settings["ivycheck.interpreter"]})
    )
    wait_for(page, "error cleared once the server runs again", lambda: toast.count() == 0)
    wait_for(page, "diagnostic after recovery", lambda: squiggles(page) > 0)

    if EDIT_SECONDS > 0:
        step(f"{EDIT_SECONDS:.0f} s of editing: typing, deleting, hovering, light bulb, saving")
        page.locator(SQUIGGLE).first.click(force=True)
        page.keyboard.press("Control+End")
        deadline = time.monotonic() + EDIT_SECONDS
        rounds = 0
        while time.monotonic() < deadline:
            rounds += 1
            page.keyboard.press("Enter")
            page.keyboard.type(f"value_{rounds} = {rounds}  # edit", delay=15)
            # The squiggle is drawn again after each edit: hover it when it is there.
            with contextlib.suppress(PlaywrightError):
                page.locator(SQUIGGLE).first.hover(force=True, timeout=2000)
            page.wait_for_timeout(200)
            page.keyboard.press("Control+.")
            page.wait_for_timeout(200)
            page.keyboard.press("Escape")
            page.keyboard.press("Control+End")
            if rounds % 3 == 0:
                page.keyboard.press("Shift+Home")
                page.keyboard.press("Backspace")
                page.keyboard.press("Backspace")
            if rounds % 5 == 0:
                page.keyboard.press("Control+s")
        TIMES["editing_rounds"] = rounds

    step("the output channel holds no error line and no library noise")
    page.wait_for_timeout(1000)
    log = output_log(user_data)
    (ARTIFACTS / "output-channel.log").write_text(log)
    noisy = [
        line
        for line in log.splitlines()
        if "Cancel notification" in line
        or ("[Error" in line and "/nonexistent/python3" not in line)
        or "Traceback" in line
    ]
    assert not noisy, noisy
    assert "ivycheck: starting the language server: ivycheck" in log, log
    assert "timing:" not in log, "timing marks at the default log level"
    page.screenshot(path=str(ARTIFACTS / "final.png"))

    timed_reload(page, workspace, user_data, settings)
    for delay in READY_OPEN_DELAYS:
        open_after_ready(page, user_data, delay)


def corpus_checks(
    page: Page, port: int, corpus: Path, root: Path, user_data: Path, marker: bool
) -> None:
    """A real project opened for the first time (see the module doc): a copy of ``corpus``
    (with a ``pyproject.toml`` if ``marker``) and a file of known mistakes."""
    label = "corpus with pyproject.toml" if marker else "corpus without a root marker"
    step(f"{label}: first open of the project, then a reload with the file restored")
    workspace = root / ("corpus-marked" if marker else "corpus")
    shutil.copytree(corpus, workspace, ignore=shutil.ignore_patterns(".ivycheck*", ".git"))
    if marker:
        (workspace / "pyproject.toml").write_text("[tool.ivycheck]\n")
    (workspace / MISTAKES_FILE).write_text(MISTAKES)
    files = sum(1 for _ in workspace.rglob("*.py"))
    # At logLevel "debug" from the start: the marks show where the first open's time goes.
    write_debug_settings(workspace, python_of(user_data))
    loaded = time.time()
    page.goto(f"http://127.0.0.1:{port}/?folder={workspace}")
    page.locator(".monaco-workbench").wait_for(state="visible", timeout=120_000)
    page.wait_for_timeout(1000)
    progress = page.locator(".statusbar", has_text="indexing")
    page.evaluate(OBSERVE_SQUIGGLE, SQUIGGLE)
    started = open_file(page, Path(MISTAKES_FILE).name)
    shown = [False]

    def squiggle_or_progress() -> bool:
        shown[0] = shown[0] or progress.count() > 0
        return squiggles(page) > 0

    opened = time.time() - (time.monotonic() - started)  # the open, on the marks' clock
    first = wait_for(page, f"{label}: first squiggle", squiggle_or_progress, 120) - started
    stages = [(opened - loaded, "file opened (harness)")]
    stages.append((opened - loaded + first, "squiggle in the editor (harness)"))
    in_dom = page.evaluate("() => window.__ivycheckSquiggleAt")
    if in_dom is not None:  # the moment itself, where the harness's polling lags behind
        stages.append((in_dom / 1000 - loaded, "squiggle in the DOM (page clock)"))
        TIMES[f"{label}: first open, open to squiggle in the DOM"] = round(
            in_dom / 1000 - opened, 3
        )
    stages += [(at, what) for what, at in marks_since(user_data, loaded).items()]
    for at, what in sorted(stages):
        print(f"[e2e] {label}: first open, folder loaded +{at:6.2f} s  {what}", flush=True)
        TIMES[f"{label}: first open: {what}"] = round(at, 3)
    deadline = time.monotonic() + 120
    while (
        not (workspace / "ivy" / ".ivycheck_cache").exists()
        and not (workspace / ".ivycheck_cache").exists()
    ):  # the index is saved once built
        shown[0] = shown[0] or progress.count() > 0
        if time.monotonic() > deadline:
            raise SystemExit(f"FAILED: {label}: the index was never saved")
        page.wait_for_timeout(50)
    indexed = time.monotonic() - started
    caches = sorted(str(c.relative_to(workspace)) for c in workspace.rglob(".ivycheck_cache"))
    print(
        f"[e2e] {label} ({files} files): open -> first squiggle {first:.2f} s, index saved "
        f"+{indexed:.2f} s, indexing progress shown: {shown[0]}, caches: {caches}",
        flush=True,
    )
    TIMES[f"{label}: first open, open to first squiggle"] = round(first, 3)
    TIMES[f"{label}: first open, open to index saved"] = round(indexed, 3)
    TIMES[f"{label}: indexing progress shown"] = shown[0]
    assert len(caches) == 1, caches
    page.wait_for_timeout(3000)  # idle: the reload below is measured at rest
    settings = {"ivycheck.interpreter": python_of(user_data)}
    timed_reload(page, workspace, user_data, settings, f"{label}: reload", "def sinh")
    idle_cost(page, label)


def python_of(user_data: Path) -> str:
    """The ``ivycheck.interpreter`` of the user settings."""
    found = json.loads((user_data / "User" / "settings.json").read_text())
    return str(found["ivycheck.interpreter"])


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of processes so far (Linux ``/proc``)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def processes(*words: str) -> list[int]:
    """Processes whose command line holds every one of ``words``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                line = (
                    (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                )
                if all(word in line for word in words):
                    found.append(int(entry.name))
    return found


def stop_shared_servers(root: Path) -> None:
    """The shared language servers the windows left (``ivycheck lsp --shared``, their
    socket under this run's ``HOME``): each would exit 10 s after its last window, and
    write its cache meanwhile; stopped (SIGTERM) and waited for, so that nothing runs or
    writes once the run's folder is removed. Their logs go to the artifacts (the last
    server of each socket: a log is rewritten by the next server)."""
    found = processes("--shared", str(root))
    for pid in found:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    while any(running(pid) for pid in found) and time.monotonic() < deadline:
        time.sleep(0.05)
    step(f"{len(found)} shared server(s) stopped")
    logs = ARTIFACTS / "shared-server-logs"
    logs.mkdir(exist_ok=True)
    for log in (root / "home").rglob("*.sock.log"):  # their standard error
        shutil.copy(log, logs / log.name)


def running(pid: int) -> bool:
    """Whether the process runs (a zombie nobody reaped yet does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def idle_cost(page: Page, label: str) -> None:
    """The CPU the server and the extension host take while nothing happens, once the
    work after the reload is done (the closed files' first check: the server's CPU stays
    under 2 % of a core for two 5-second windows in a row; at most 5 minutes)."""
    server = processes("launch.py", "lsp")
    host = processes("--type=extensionHost")
    started, quiet = time.monotonic(), 0
    while quiet < 2 and time.monotonic() - started < 300:
        used = cpu_seconds(server)
        page.wait_for_timeout(5000)
        quiet = quiet + 1 if (cpu_seconds(server) - used) / 5 < 0.02 else 0
    settled = time.monotonic() - started
    TIMES[f"{label}: seconds until the server is quiet"] = round(settled, 1)
    before = cpu_seconds(server), cpu_seconds(host)
    page.wait_for_timeout(IDLE_SECONDS * 1000)
    server_share = (cpu_seconds(server) - before[0]) / IDLE_SECONDS * 100
    host_share = (cpu_seconds(host) - before[1]) / IDLE_SECONDS * 100
    print(
        f"[e2e] {label}: quiet {settled:.0f} s after the reload; idle {IDLE_SECONDS:.0f} s: "
        f"server {server_share:.2f} % of a core ({len(server)} process), extension host "
        f"{host_share:.2f} %",
        flush=True,
    )
    TIMES[f"{label}: idle server CPU %"] = round(server_share, 2)
    TIMES[f"{label}: idle extension host CPU %"] = round(host_share, 2)


MARK = re.compile(r"timing: (?P<what>.+?) at (?P<at>\d{13})\b")


VSCODE_LOG = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \[info\] (.*)$", re.M)


def vscode_stages(user_data: Path, epoch: float) -> list[tuple[float, str]]:
    """From the log of the newest extension host (local time, ms): when it was up, when
    it began activating its first extension, any extension (the floor of a reload that is
    VS Code's, not ours), and when ivycheck, on which activation event."""
    found: list[tuple[float, str]] = []
    for log in (user_data / "logs").rglob("remoteexthost.log"):
        stages: list[tuple[float, str]] = []
        first_activation = True
        for stamp, message in VSCODE_LOG.findall(log.read_text(errors="replace")):
            at = datetime.datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S.%f").timestamp() - epoch
            if message.startswith("Extension host with pid"):
                stages.append((at, "extension host up (VS Code's log)"))
            elif "_doActivateExtension" in message and first_activation:
                first_activation = False
                name = re.search(r"_doActivateExtension ([^\s,]+)", message)
                stages.append(
                    (at, f"VS Code activates its first extension ({name[1] if name else '?'})")
                )
            if "_doActivateExtension ivycheck.ivycheck" in message:
                event = re.search(r"activationEvent: '([^']*)'", message)
                stages.append((at, f"VS Code activates ivycheck ({event[1] if event else '?'})"))
        if stages and (not found or stages[0][0] > found[0][0]):
            found = stages
    return [stage for stage in found if stage[0] > 0]


def write_debug_settings(workspace: Path, interpreter: str) -> bool:
    """The workspace's settings: ``interpreter``, and ``ivycheck.logLevel`` "debug" (the
    extension and the server then write their timing marks). Whether they changed (the
    extension then restarts the server)."""
    file = workspace / ".vscode" / "settings.json"
    text = json.dumps({"ivycheck.interpreter": interpreter, "ivycheck.logLevel": "debug"})
    if file.exists() and file.read_text() == text:
        return False
    file.parent.mkdir(exist_ok=True)
    file.write_text(text)
    return True


def timed_reload(
    page: Page,
    workspace: Path,
    user_data: Path,
    settings: dict[str, Any],
    label: str = "timed_reload",
    editor_text: str = "handle_out_argument",
) -> None:
    """Where the time from a window reload to the first diagnostic goes: with
    ``ivycheck.logLevel`` "debug" the extension and the server write timing marks (wall
    clock, ms) to the output channel; set against this harness's own clock (the reload
    command, the restored editor holding ``editor_text`` and the squiggle in the DOM), one
    line per stage, under ``label``."""
    step(
        f"{label}: a timed window reload (ivycheck.logLevel debug: the extension's and server's marks)"
    )
    if write_debug_settings(workspace, settings["ivycheck.interpreter"]):
        starts = output_log(user_data).count("[client] starting:")
        wait_for(
            page,
            "the server restarted at logLevel debug",
            lambda: output_log(user_data).count("[client] starting:") > starts,
        )
    wait_for(page, "diagnostic before the timed reload", lambda: squiggles(page) > 0)
    page.wait_for_timeout(1000)
    command(page, "Developer: Reload Window")
    reloaded, epoch = time.monotonic(), time.time()
    page.wait_for_timeout(500)
    page.locator(".monaco-workbench").wait_for(state="visible", timeout=120_000)
    workbench = time.monotonic() - reloaded
    page.evaluate(OBSERVE_SQUIGGLE, SQUIGGLE)
    page.locator(".monaco-editor .view-lines", has_text=editor_text).first.wait_for(
        state="visible", timeout=120_000
    )
    shown = time.monotonic() - reloaded
    diagnostic = wait_for(page, "diagnostic after reload", lambda: squiggles(page) > 0, 120)
    diagnostic -= reloaded
    page.wait_for_timeout(500)
    stages = [(workbench, "workbench visible (harness)"), (shown, "file shown (harness)")]
    stages.append((diagnostic, "squiggle in the editor (harness)"))
    in_dom = page.evaluate("() => window.__ivycheckSquiggleAt")
    if in_dom is not None:  # the moment itself (the harness's polling finds it later)
        stages.append((in_dom / 1000 - epoch, "squiggle in the DOM (page clock)"))
    first: dict[str, float] = {}
    for match in MARK.finditer(output_log(user_data)):
        at = int(match["at"]) / 1000 - epoch
        what = match["what"]
        if at > 0 and what not in first:
            first[what] = at
            if what == "activated":
                host = re.search(
                    r"\((\d+) ms after the extension host started", match.string[match.end() :]
                )
                if host:
                    first["extension host started"] = at - int(host[1]) / 1000
    stages += [(at, what) for what, at in first.items()]
    stages += vscode_stages(user_data, epoch)
    stages.sort()
    for at, what in stages:
        print(f"[e2e] {label} +{at:6.2f} s  {what}", flush=True)
        TIMES[f"{label}: {what}"] = round(at, 3)
    part = ivycheck_part(stages)
    if part is not None:
        print(
            f"[e2e] {label}: ivycheck's part (VS Code activates it -> squiggle in the DOM) "
            f"{part:.2f} s",
            flush=True,
        )
        TIMES[f"{label}: ivycheck's part"] = round(part, 3)
    TIMES[f"{label}_to_diagnostic"] = diagnostic
    # VS Code's own logs (the extension host's activation of each extension among them).
    shutil.copytree(user_data / "logs", ARTIFACTS / "logs", dirs_exist_ok=True)
    TIMES[f"{label}: editor shown to diagnostic"] = diagnostic - shown


def ivycheck_part(stages: list[tuple[float, str]]) -> float | None:
    """From VS Code activating ivycheck (its log) to the squiggle in the DOM (the page's
    clock): the part of a reload that is ivycheck's; VS Code's own comes before it."""
    activated = next(
        (at for at, what in stages if what.startswith("VS Code activates ivycheck")), None
    )
    drawn = next((at for at, what in stages if what.startswith("squiggle in the DOM")), None)
    return None if activated is None or drawn is None else drawn - activated


def marks_since(user_data: Path, epoch: float) -> dict[str, float]:
    """The extension's and the server's timing marks written after ``epoch`` (wall
    clock, s): the first of each kind, in seconds after ``epoch``."""
    first: dict[str, float] = {}
    for match in MARK.finditer(output_log(user_data)):
        at = int(match["at"]) / 1000 - epoch
        if at > 0 and match["what"] not in first:
            first[match["what"]] = at
    return first


def open_after_ready(page: Page, user_data: Path, delay: float) -> None:
    """Issue 27's case as it reads: reload the window with no editor open (so that
    nothing is restored), wait until the window is ready (the extension has started
    the server and it has answered ``initialize``: the extension's timing mark at
    ``ivycheck.logLevel`` debug, read from the output channel, never a fixed sleep), then
    ``delay`` seconds more, open the file and time the open to its squiggle."""
    label = f"ready+{delay:g}s"
    step(f"reload with no editor open; open the file {delay:g} s after the server is ready")
    command(page, "File: Save All")
    page.wait_for_timeout(300)
    command(page, "View: Close All Editors")
    wait_for(
        page,
        "no editor open before the reload",
        lambda: page.locator(".monaco-editor .view-lines").count() == 0,
    )
    command(page, "Developer: Reload Window")
    reloaded, epoch = time.monotonic(), time.time()
    page.wait_for_timeout(500)
    page.locator(".monaco-workbench").wait_for(state="visible", timeout=120_000)
    workbench = time.monotonic() - reloaded
    ready_mark = "server answered initialize"
    seen = wait_for(
        page,
        f"{label}: the server answered initialize after the reload",
        lambda: ready_mark in marks_since(user_data, epoch),
        120,
    )
    ready = marks_since(user_data, epoch)[ready_mark]
    if delay:
        page.wait_for_timeout(delay * 1000)
    page.evaluate(OBSERVE_SQUIGGLE, SQUIGGLE)
    started = open_file(page, "elementwise.py")
    opened_at = started - reloaded
    diagnostic = wait_for(page, f"{label}: diagnostic", lambda: squiggles(page) > 0, 120)
    in_dom = page.evaluate("() => window.__ivycheckSquiggleAt")
    page.wait_for_timeout(500)
    stages = [
        (workbench, "workbench visible (harness)"),
        (seen - reloaded, "the harness sees the ready mark in the output channel"),
        (opened_at, "**file opened** (harness: Enter in Quick Open)"),
        (diagnostic - reloaded, "squiggle in the editor (harness)"),
    ]
    if in_dom:
        stages.append((in_dom / 1000 - epoch, "squiggle in the DOM (the page's own clock)"))
    stages += [(at, what) for what, at in marks_since(user_data, epoch).items()]
    stages += vscode_stages(user_data, epoch)
    stages.sort()
    for at, what in stages:
        print(f"[e2e] {label} +{at:6.2f} s  {what}", flush=True)
        TIMES[f"{label}: {what}"] = round(at, 3)
    TIMES[f"{label}: ready (server answered initialize) after the reload"] = round(ready, 3)
    TIMES[f"{label}: open to diagnostic"] = round(diagnostic - started, 3)
    print(
        f"[e2e] {label}: open -> diagnostic {diagnostic - started:.2f} s "
        f"(ready {ready:.2f} s after the reload, file opened at +{opened_at:.2f} s)",
        flush=True,
    )


ARTIFACTS = Path("build/vscode-e2e")
USER_DATA: Path | None = None
EDIT_SECONDS = 20.0
READY_OPEN_DELAYS: list[float] = [0.0, 1.0, 3.0]

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
