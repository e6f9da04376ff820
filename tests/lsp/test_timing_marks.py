"""Start-up timing marks (issue 27): at ``--log-level debug`` the server writes where its
start goes (``main()`` entered, modules imported, ``initialize`` answered, the first
document checked) as wall-clock milliseconds, which the VS Code extension's own marks and
``make test-vscode``'s timed reload set against each other; at the default level, none."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.helpers import write_tree

MARK = re.compile(r"timing: server (.+?) at (\d{13})\b")
API_PATH = "ivy/functional/ivy/elementwise.py"
BAD = """\
@to_native_arrays_and_back
@handle_out_argument
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)


@handle_out_argument
def sinh(x, out=None):
    return current_backend(x).sinh(x, out=out)
"""
"""IVY005 (read with the index) and IVY008 (the file's own: found by the first check,
whether or not the index is built by then)."""


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read(stdout: Any) -> dict[str, Any]:
    length = 0
    while True:
        line = stdout.readline()
        assert line, "the server closed its output"
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode().partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    result: dict[str, Any] = json.loads(stdout.read(length))
    return result


def _start(tmp_path: Path, level: str) -> str:
    """Start the server at ``level``, open a document, wait for its diagnostics, stop;
    the server's standard error."""
    workspace = write_tree(tmp_path / "ws", {"pyproject.toml": "[tool.ivycheck]\n", API_PATH: BAD})
    uri = (workspace / API_PATH).as_uri()
    log = tmp_path / "stderr.log"
    with log.open("wb") as stderr:  # a file: pygls's debug log would fill a pipe
        process = subprocess.Popen(
            [sys.executable, "-m", "ivycheck", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env={**os.environ, "IVYCHECK_LOG_LEVEL": level},
            cwd=workspace,
        )
    assert process.stdin is not None and process.stdout is not None
    try:
        root = workspace.as_uri()
        messages: list[dict[str, Any]] = [
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": root, "capabilities": {}},
            },
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": BAD}
                },
            },
        ]
        for message in messages:
            process.stdin.write(_frame(message))
        process.stdin.flush()
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "no diagnostics for the document"
            message = _read(process.stdout)
            params = message.get("params") or {}
            if message.get("method") == "textDocument/publishDiagnostics" and params.get(
                "diagnostics"
            ):
                break
        process.stdin.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        process.stdin.write(_frame({"jsonrpc": "2.0", "method": "exit"}))
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return log.read_text(errors="replace")


def test_debug_level_marks_each_stage_in_order(tmp_path: Path) -> None:
    before = time.time() * 1000
    stderr = _start(tmp_path, "debug")
    marks = [(what, int(at)) for what, at in MARK.findall(stderr)]
    stages = [what for what, _ in marks]
    assert stages[:3] == ["main() entered", "modules imported", "answers initialize"], stderr
    first = [s for s in stages if s.startswith("checked its first document (")]
    assert first and first[0] != "checked its first document (0 findings)", stderr
    times = [at for _, at in marks]
    assert times == sorted(times), marks
    assert before - 1000 <= times[0] <= time.time() * 1000, marks


def test_default_level_writes_no_mark(tmp_path: Path) -> None:
    assert "timing:" not in _start(tmp_path, "warning")


def test_start_imports_without_the_collector_and_leaves_it_on(tmp_path: Path) -> None:
    """The server's imports run with the cyclic collector off (its passes over the
    imported modules are wasted, on the way to the first diagnostics); afterwards it is
    on again, with the imported objects frozen out of its generations."""
    script = (
        "import gc, sys\n"
        "from ivycheck.lsp.cli import main\n"
        "assert gc.isenabled() and gc.get_freeze_count() == 0\n"
        "status = main(['--stdio'])\n"  # standard input is empty: it stops at once
        "print(status, gc.isenabled(), gc.get_freeze_count(), 'pygls' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    status, enabled, frozen, imported = done.stdout.split()
    assert (status, enabled, imported) == ("0", "True", "True"), done.stdout
    assert int(frozen) > 10_000, done.stdout
