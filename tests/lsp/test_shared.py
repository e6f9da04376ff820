"""The shared server (``ivycheck lsp --shared``): real processes on real Unix sockets.

A client here is a plain JSON-RPC connection to the socket (no mock of the transport):
it reads the server's greeting line, then speaks LSP as an editor does, answering the
server's own requests with ``null``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import write_tree
from tests.lsp.harness import NUMPY_TAN, SPECIAL_API, uri

API_PATH = "ivy/functional/ivy/special.py"
BACKEND_PATH = "ivy/functional/backends/numpy/special.py"
ERF = "\n\ndef erf(x, /, *, out=None):\n    return np.erf(x)\n"
"""``erf`` for the NumPy backend: with it, the API's IVY017 (no backend defines ``erf``)
goes."""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "ws",
        {
            "pyproject.toml": "[tool.ivycheck]\n",
            API_PATH: SPECIAL_API,
            BACKEND_PATH: NUMPY_TAN,
        },
    )


@pytest.fixture
def sock(tmp_path: Path) -> Path:
    return tmp_path / "run" / "ivycheck" / "test.sock"


LAUNCH_LINE = "ivycheck: starting the language server: ivycheck 0.1.0 (the test's)"


def start(sock: Path, cwd: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "ivycheck", "lsp", "--shared", str(sock), *args],
        cwd=cwd,
        env={**os.environ, "IVYCHECK_LAUNCH_LINE": LAUNCH_LINE},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


@contextlib.contextmanager
def shared_server(sock: Path, cwd: Path, *args: str) -> Iterator[subprocess.Popen[bytes]]:
    process = start(sock, cwd, "--log-level", "info", *args)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(30)
        assert process.stderr is not None
        process.stderr.close()


class Client:
    """One connection to the socket: the greeting, then LSP."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.greeting = ""
        self.next_id = 0
        self.diagnostics: dict[str, list[dict[str, Any]]] = {}
        self.logs: list[str] = []
        self.responses: dict[int, dict[str, Any]] = {}
        self.messages: list[dict[str, Any]] = []
        """Everything the server sent, in order."""
        self.task: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, sock: Path, timeout: float = 60.0) -> Client:
        """Connect as soon as the server accepts (it may still be importing)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                reader, writer = await asyncio.open_unix_connection(str(sock))
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.02)
        client = cls(reader, writer)
        client.greeting = (await asyncio.wait_for(reader.readline(), timeout)).decode()
        return client

    @property
    def state(self) -> str:
        return self.greeting.split()[2]

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def request(self, method: str, params: Any) -> dict[str, Any]:
        self.next_id += 1
        request_id = self.next_id
        self.send({"id": request_id, "method": method, "params": params})
        while request_id not in self.responses:
            await asyncio.sleep(0.01)
        return self.responses.pop(request_id)

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    async def _read(self) -> None:
        while True:
            length = 0
            while True:
                line = await self.reader.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(await self.reader.readexactly(length))
            self.messages.append(message)
            method = message.get("method")
            if method == "textDocument/publishDiagnostics":
                self.diagnostics[message["params"]["uri"]] = message["params"]["diagnostics"]
            elif method == "window/logMessage":
                self.logs.append(message["params"]["message"])
            elif method is not None and "id" in message:  # a request of the server's
                self.send({"id": message["id"], "result": None})
            elif "id" in message:
                self.responses[message["id"]] = message

    async def initialize(self, root: Path, capabilities: dict[str, Any] | None = None) -> None:
        self.task = asyncio.ensure_future(self._read())
        await self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": uri(root),
                "workspaceFolders": [{"uri": uri(root), "name": root.name}],
                "capabilities": capabilities or {},
            },
        )
        self.notify("initialized", {})

    def open(self, path: Path, text: str | None = None) -> str:
        document = uri(path)
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": document,
                    "languageId": "python",
                    "version": 1,
                    "text": path.read_text() if text is None else text,
                }
            },
        )
        return document

    async def codes(self, document: str, until: set[str], timeout: float = 60.0) -> set[str]:
        """The codes published for ``document`` once they are ``until``."""
        deadline = time.monotonic() + timeout
        while True:
            found = {d["code"] for d in self.diagnostics.get(document, [])}
            if document in self.diagnostics and found == until:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"{document}: {found}, never {until}")
            await asyncio.sleep(0.02)

    async def leave(self) -> None:
        """Drop the connection without a word, as a window reload does."""
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()
        if self.task is not None:
            self.task.cancel()


@contextlib.asynccontextmanager
async def connected(sock: Path, root: Path) -> AsyncIterator[Client]:
    client = await Client.connect(sock)
    assert client.state == "ready", client.greeting
    await client.initialize(root)
    try:
        yield client
    finally:
        await client.leave()


async def logged(client: Client, text: str, timeout: float = 60.0) -> None:
    """Wait until the client was sent a log message holding ``text``."""
    deadline = time.monotonic() + timeout
    while not any(text in line for line in client.logs):
        if time.monotonic() > deadline:
            raise AssertionError(f"never logged {text!r}: {client.logs}")
        await asyncio.sleep(0.02)


def wait_exit(process: subprocess.Popen[bytes], timeout: float = 30.0) -> int:
    return process.wait(timeout)


@pytest.mark.asyncio
async def test_a_second_client_gets_the_index_the_first_left(workspace: Path, sock: Path) -> None:
    api = workspace / API_PATH
    with shared_server(sock, workspace, "--idle-timeout", "60") as process:
        async with connected(sock, workspace) as first:
            document = first.open(api)
            assert await first.codes(document, {"IVY005", "IVY017"})
            assert f"pid={process.pid}" in first.greeting
            await logged(first, "index built")
        async with connected(sock, workspace) as second:
            document = second.open(api)
            assert await second.codes(document, {"IVY005", "IVY017"})
            await logged(second, "files kept")
            await asyncio.sleep(0.3)  # an index built again would say so by now
        assert process.poll() is None, "the server outlives its clients"
    indexed = [line for line in first.logs + second.logs if line.startswith("index built")]
    assert len(indexed) == 1, indexed
    assert any("client 2: 0 files changed on disk" in line for line in second.logs), second.logs


@pytest.mark.asyncio
async def test_a_client_s_documents_are_forgotten_when_it_leaves(
    workspace: Path, sock: Path
) -> None:
    """Client 1's unsaved texts: the API without ``erf`` (no IVY017 there) and a backend
    that defines ``erf`` (no IVY017 anywhere). Client 2 opens nothing: the API's
    diagnostics it pulls are those of the files on disk."""
    api, backend = workspace / API_PATH, workspace / BACKEND_PATH
    without_erf = SPECIAL_API[: SPECIAL_API.index("@handle_exceptions")]
    with shared_server(sock, workspace, "--idle-timeout", "60"):
        async with connected(sock, workspace) as first:
            first.open(backend, NUMPY_TAN + ERF)
            document = first.open(api, without_erf)
            await first.codes(document, {"IVY005"})
        async with connected(sock, workspace) as second:
            pulled = await second.request(
                "textDocument/diagnostic", {"textDocument": {"uri": document}}
            )
            assert {d["code"] for d in pulled["result"]["items"]} == {"IVY005", "IVY017"}


@pytest.mark.asyncio
async def test_files_changed_while_no_client_was_connected_are_read_again(
    workspace: Path, sock: Path
) -> None:
    api, backend = workspace / API_PATH, workspace / BACKEND_PATH
    with shared_server(sock, workspace, "--idle-timeout", "60"):
        async with connected(sock, workspace) as first:
            document = first.open(api)
            await first.codes(document, {"IVY005", "IVY017"})
        backend.write_text(NUMPY_TAN + ERF)
        async with connected(sock, workspace) as second:
            document = second.open(api)
            assert await second.codes(document, {"IVY005"})
        backend.write_text(NUMPY_TAN)
        (backend.parent / "erf_only.py").write_text("import numpy as np" + ERF)
        async with connected(sock, workspace) as third:
            document = third.open(api)
            # The new file is found by a walk after the first answer: then re-published.
            assert await third.codes(document, {"IVY005"})


@pytest.mark.asyncio
async def test_shutdown_and_exit_end_the_connection_not_the_server(
    workspace: Path, sock: Path
) -> None:
    with shared_server(sock, workspace, "--idle-timeout", "60") as process:
        client = await Client.connect(sock)
        await client.initialize(workspace)
        assert (await client.request("shutdown", None)).get("result", "missing") is None
        client.notify("exit", None)
        assert client.task is not None
        await asyncio.wait_for(client.task, 30)  # the server closed the connection
        await client.leave()
        async with connected(sock, workspace) as second:
            document = second.open(workspace / API_PATH)
            assert await second.codes(document, {"IVY005", "IVY017"})
        assert process.poll() is None


@pytest.mark.asyncio
async def test_a_second_client_at_once_is_turned_away(workspace: Path, sock: Path) -> None:
    with shared_server(sock, workspace, "--idle-timeout", "60"):
        async with connected(sock, workspace) as first:
            second = await Client.connect(sock)
            assert second.state == "busy"
            assert await asyncio.wait_for(second.reader.read(), 30) == b""
            document = first.open(workspace / API_PATH)
            assert await first.codes(document, {"IVY005", "IVY017"})


@pytest.mark.asyncio
async def test_the_server_exits_once_idle_and_removes_its_socket(
    workspace: Path, sock: Path
) -> None:
    with shared_server(sock, workspace, "--idle-timeout", "0.5") as process:
        async with connected(sock, workspace):
            await asyncio.sleep(1.0)  # longer than the timeout: a connected client keeps it
            assert process.poll() is None
        assert wait_exit(process) == 0
    assert not sock.exists()
    assert Path(f"{sock}.lock").exists()  # never removed (see rendezvous)


def test_a_server_with_no_client_exits_once_idle(workspace: Path, sock: Path) -> None:
    with shared_server(sock, workspace, "--idle-timeout", "0.2") as process:
        assert wait_exit(process) == 0


@pytest.mark.asyncio
async def test_a_dead_server_s_socket_is_replaced(workspace: Path, sock: Path) -> None:
    sock.parent.mkdir(mode=0o700, parents=True)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(sock))
    dead.close()  # the file stays, nobody listens: what a killed server leaves
    with pytest.raises(ConnectionRefusedError):
        await asyncio.open_unix_connection(str(sock))
    with shared_server(sock, workspace, "--idle-timeout", "60"):
        async with connected(sock, workspace) as client:
            document = client.open(workspace / API_PATH)
            assert await client.codes(document, {"IVY005", "IVY017"})


def test_a_second_server_for_the_same_socket_leaves_it_to_the_first(
    workspace: Path, sock: Path
) -> None:
    with shared_server(sock, workspace, "--idle-timeout", "60") as first:
        while not sock.exists():
            assert first.poll() is None
            time.sleep(0.02)
        second = start(sock, workspace, "--log-level", "info")
        assert second.wait(60) == 0
        assert second.stderr is not None
        assert "another ivycheck server serves" in second.stderr.read().decode()
        second.stderr.close()
        assert first.poll() is None
    assert stat.S_IMODE(os.stat(sock.parent).st_mode) == 0o700


@pytest.mark.parametrize("how", ["open to others", "a link", "another user's"])
def test_a_folder_others_control_is_refused(tmp_path: Path, workspace: Path, how: str) -> None:
    folder = tmp_path / "rendezvous"
    if how == "open to others":
        folder.mkdir()
        folder.chmod(0o777)
    elif how == "a link":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        folder.symlink_to(tmp_path / "elsewhere")
    else:
        if os.geteuid() != 0:
            pytest.skip("only root can give a folder to another user")
        folder.mkdir(mode=0o700)
        os.chown(folder, 65534, 65534)
    process = start(folder / "x.sock", workspace)
    assert process.wait(60) == 2
    assert process.stderr is not None
    message = process.stderr.read().decode()
    process.stderr.close()
    assert "Traceback" not in message
    assert f"{folder}" in message and "not used" in message
    assert not (folder / "x.sock").exists()


@pytest.mark.parametrize("value", ["nan", "-5", "soon"])
def test_an_idle_timeout_that_is_no_wait_is_refused(
    sock: Path, workspace: Path, value: str
) -> None:
    """``--idle-timeout nan`` or a negative one made a server that exited at once."""
    process = start(sock, workspace, "--idle-timeout", value)
    assert process.wait(60) == 2
    assert process.stderr is not None
    message = process.stderr.read().decode()
    process.stderr.close()
    assert "Traceback" not in message
    assert f"--idle-timeout: expected a number of seconds >= 0, got '{value}'" in message


def test_the_socket_is_the_user_s_alone(workspace: Path, sock: Path) -> None:
    with shared_server(sock, workspace, "--idle-timeout", "60") as process:
        while not sock.exists():
            assert process.poll() is None
            time.sleep(0.02)
        assert stat.S_IMODE(os.stat(sock).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(sock.parent).st_mode) == 0o700


@pytest.mark.asyncio
async def test_what_the_server_logged_before_its_first_client_reaches_that_client(
    workspace: Path, sock: Path
) -> None:
    """Its standard error is a file nobody watches: the start-up timing marks (debug)
    wait for the first client, as ``window/logMessage``."""
    with shared_server(sock, workspace, "--idle-timeout", "60", "--log-level", "debug"):
        async with connected(sock, workspace) as client:
            await logged(client, "timing: server answers initialize")
    assert any("timing: server modules imported" in line for line in client.logs)


@pytest.mark.asyncio
async def test_each_client_is_told_which_ivycheck_serves_it(workspace: Path, sock: Path) -> None:
    """The VS Code launcher's line naming the copy that runs (its standard error is a
    file here): to the first client as written, to the next as a server serving again."""
    with shared_server(sock, workspace, "--idle-timeout", "60") as process:
        async with connected(sock, workspace) as first:
            await logged(first, LAUNCH_LINE)
        async with connected(sock, workspace) as second:
            await logged(second, f"the shared language server (pid {process.pid}) serves")
    assert LAUNCH_LINE not in second.logs


@pytest.mark.asyncio
async def test_without_a_socket_the_server_picks_one_in_the_runtime_folder(
    workspace: Path,
) -> None:
    # Short: a socket's path has at most 107 bytes (pytest's folders are longer).
    with tempfile.TemporaryDirectory(prefix="rt") as folder:
        await serve_in_runtime_folder(Path(folder), workspace)


async def serve_in_runtime_folder(runtime: Path, workspace: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "ivycheck", "lsp", "--shared", "--idle-timeout", "0.5"],
        cwd=workspace,
        env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)},
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not list((runtime / "ivycheck").glob("*.sock")):
            assert process.poll() is None and time.monotonic() < deadline
            await asyncio.sleep(0.02)
        [sock] = (runtime / "ivycheck").glob("*.sock")
        async with connected(sock, workspace) as client:
            assert f"pid={process.pid}" in client.greeting
        assert wait_exit(process) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_index_tells_which_files_changed_since_it_read_them(workspace: Path) -> None:
    """What a shared server's next client re-validates (``Projects.stale_files``,
    ``unseen_files``, ``config_stamps``), against the disk."""
    from ivycheck.checker.run.projects import Projects

    api, backend = workspace / API_PATH, workspace / BACKEND_PATH
    project = Projects(tolerant=True, use_cache=False)
    project.scan([workspace])
    configs = project.config_stamps()
    assert project.stale_files() == [] and project.unseen_files() == []
    backend.write_text(NUMPY_TAN + "\n")  # another size
    project.update(api, SPECIAL_API + "\n")  # a buffer: not what the disk holds
    assert project.stale_files() == sorted([api, backend])
    project.update(api, None)
    project.update(backend, None)
    assert project.stale_files() == []
    (backend.parent / "new.py").write_text("import numpy as np\n")
    assert project.unseen_files() == [backend.parent / "new.py"]
    backend.unlink()
    assert project.stale_files() == [backend]
    assert project.config_stamps() == configs
    nested = {"pyproject.toml": "[tool.ivycheck]\n", "x.py": ""}  # a project of its own
    write_tree(workspace / "tools" / "other", nested)
    assert project.unseen_files() == [backend.parent / "new.py"]  # not the nested project's
    configs = project.config_stamps()  # now with the nested project's folder
    assert project.config_stamps() == configs
    assert not project.configs_changed(configs)
    (workspace / "pyproject.toml").write_text("[tool.ivycheck]\nignore = ['IVY006']\n")
    assert project.config_stamps() != configs
    assert project.configs_changed(configs)


@pytest.fixture
def uncached_big_workspace(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workspace with 1,500 more files and no cache: a first scan long enough for a
    client to leave during it."""
    for number in range(1500):
        (workspace / "ivy" / f"extra_{number}.py").write_text(f"def f{number}(x):\n    return x\n")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # nothing summarized yet


async def _leave_once_answered(sock: Path, workspace: Path) -> None:
    """A client that opens a document, gets its answer (the scan goes on) and leaves."""
    first = await Client.connect(sock)
    await first.initialize(workspace)
    document = first.open(workspace / API_PATH)
    while document not in first.diagnostics:
        await asyncio.sleep(0.01)
    await first.leave()


@pytest.mark.usefixtures("uncached_big_workspace")
@pytest.mark.asyncio
async def test_files_the_scan_has_not_read_yet_are_not_read_again_as_changed(
    workspace: Path, sock: Path
) -> None:
    """A client that leaves while the index is being built (a window reloaded at once):
    the files the scan has not reached are no files changed on disk. Read again one by
    one before the next client's first answer, they held it back behind what the scan
    does in steps, documents first."""
    with shared_server(sock, workspace, "--idle-timeout", "60"):
        await _leave_once_answered(sock, workspace)
        async with connected(sock, workspace) as second:
            await logged(second, "files changed on disk meanwhile")
            await logged(second, "index built: 1502 files")  # the scan read them
    said = [line for line in second.logs if "changed on disk meanwhile" in line]
    assert any("client 2: 0 files changed on disk" in line for line in said), said


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


async def _quiet(pid: int, timeout: float = 60.0) -> None:
    """Wait until the process has used no CPU for a second (its scan is over)."""
    deadline = time.monotonic() + timeout
    last, still = _cpu_ticks(pid), 0
    while still < 5:
        await asyncio.sleep(0.2)
        ticks = _cpu_ticks(pid)
        still = still + 1 if ticks == last else 0
        last = ticks
        assert time.monotonic() < deadline, "the server never went quiet"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.usefixtures("uncached_big_workspace")
@pytest.mark.asyncio
async def test_the_index_is_built_on_while_no_client_is_connected(
    workspace: Path, sock: Path
) -> None:
    """A client that leaves during the first scan: the scan is the workspace's, and goes
    on without a client (it was cancelled with the client's ``initialized`` handler),
    and ends without an error (it re-checked the open documents of a client that was
    gone: ``RuntimeError`` in the server's log)."""
    with shared_server(sock, workspace, "--idle-timeout", "60") as process:
        await _leave_once_answered(sock, workspace)
        await _quiet(process.pid)
        async with connected(sock, workspace) as second:
            await logged(second, "files changed on disk meanwhile")
        process.terminate()
        assert process.stderr is not None
        logged_by_server = process.stderr.read().decode()
    said = [line for line in second.logs if "changed on disk meanwhile" in line]
    assert any("the index of 1502 files kept" in line for line in said), said
    assert "Traceback" not in logged_by_server, logged_by_server


def _progress_tokens(client: Client) -> tuple[set[str], set[str]]:
    """The tokens the server asked ``client`` to create, and those it reported on."""
    created = {
        m["params"]["token"]
        for m in client.messages
        if m.get("method") == "window/workDoneProgress/create"
    }
    reported = {m["params"]["token"] for m in client.messages if m.get("method") == "$/progress"}
    return created, reported


@pytest.mark.usefixtures("uncached_big_workspace")
@pytest.mark.asyncio
async def test_a_scan_s_progress_goes_to_the_client_that_made_its_token(
    workspace: Path, sock: Path
) -> None:
    """The first scan goes on after its client left: the next client is sent no
    ``$/progress`` of the token the last one made (unknown to it), and one of its own if
    it takes progress."""
    progress = {"window": {"workDoneProgress": True}}
    with shared_server(sock, workspace, "--idle-timeout", "60"):
        first = await Client.connect(sock)
        await first.initialize(workspace, progress)
        while not _progress_tokens(first)[1]:  # the scan has begun
            await asyncio.sleep(0.01)
        await first.leave()
        second = await Client.connect(sock)
        await second.initialize(workspace, progress)
        await logged(second, "index built")
        await second.leave()
    created, reported = _progress_tokens(second)
    assert reported <= created, (created, reported)
    assert _progress_tokens(first)[1].isdisjoint(reported)


@pytest.mark.asyncio
async def test_a_project_made_under_the_workspace_while_no_client_was_connected_is_indexed(
    workspace: Path, sock: Path
) -> None:
    """A project of its own (its ``pyproject.toml``) created under the workspace folder
    between two clients: its files are its own root's, not the outer scope's, and were
    left out of every index; a fresh server reports them."""
    nested = workspace / "tools" / "other"
    with shared_server(sock, workspace, "--idle-timeout", "60"):
        async with connected(sock, workspace) as first:
            await logged(first, "workspace diagnostics up to date")
        write_tree(nested, {"pyproject.toml": "[tool.ivycheck]\n", API_PATH: SPECIAL_API})
        async with connected(sock, workspace) as second:
            assert await second.codes(uri(nested / API_PATH), {"IVY005"})


def copy_of_ivycheck(folder: Path) -> Path:
    """A copy of the running ivycheck package (each sub-package from wherever the install
    put it: an editable install's tree of links, a site-packages folder), as ``folder /
    "ivycheck"``; returns ``folder``, for ``sys.path``. Each file's change is older than
    the return, by more than the kernel's file clock may lag (see ``loaded_code``)."""
    import importlib.util

    import ivycheck
    from ivycheck.lsp.loaded_code import FILE_CLOCK_MARGIN_NS

    skip = shutil.ignore_patterns("__pycache__")
    package = folder / "ivycheck"
    shutil.copytree(Path(ivycheck.__file__).parent, package, ignore=skip)
    for part in ("checker", "rules", "lsp", "runtime"):
        spec = importlib.util.find_spec(f"ivycheck.{part}")
        assert spec is not None and spec.submodule_search_locations is not None
        if not (package / part).is_dir():
            location = next(iter(spec.submodule_search_locations))
            shutil.copytree(location, package / part, ignore=skip)
    newest = max(os.stat(path).st_ctime_ns for path in package.rglob("*"))
    while time.time_ns() < newest + FILE_CLOCK_MARGIN_NS:
        time.sleep(0.01)
    return folder


def start_copy(copy: Path, sock: Path, cwd: Path) -> subprocess.Popen[bytes]:
    """A shared server that runs the ivycheck in ``copy`` (first on ``sys.path``: a
    ``PYTHONPATH`` entry does not come before an editable install's), and says so."""
    code = (
        "import sys; sys.path.insert(0, sys.argv.pop(1)); import ivycheck; "
        "print(ivycheck.__file__, file=sys.stderr, flush=True); "
        "from ivycheck.lsp.cli import main; sys.exit(main())"
    )
    args = ["--shared", str(sock), "--idle-timeout", "60", "--log-level", "info"]
    return subprocess.Popen(
        [sys.executable, "-c", code, str(copy), *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


@pytest.mark.asyncio
async def test_a_server_whose_code_changed_on_disk_says_stale_and_exits(
    workspace: Path, sock: Path, tmp_path: Path
) -> None:
    """An upgrade, or an edit of a development checkout, while the server runs: the next
    client is not served the old code (its window would reload onto it again and again);
    the server says ``stale``, exits and leaves the socket to the next one."""
    copy = copy_of_ivycheck(tmp_path / "code")
    process = start_copy(copy, sock, workspace)
    assert process.stderr is not None
    try:
        imported = process.stderr.readline().decode().strip()
        assert imported == str(copy / "ivycheck" / "__init__.py")
        async with connected(sock, workspace) as first:
            assert f"pid={process.pid}" in first.greeting
            await first.request("shutdown", None)
        async with connected(sock, workspace) as second:  # the code is the same
            await second.request("shutdown", None)
        with (copy / "ivycheck" / "lsp" / "shared.py").open("a") as module:
            module.write("# edited\n")
        third = await Client.connect(sock)
        assert third.state == "stale" and f"pid={process.pid}" in third.greeting
        assert await asyncio.wait_for(third.reader.read(), 30) == b""
        assert wait_exit(process) == 0
        assert not sock.exists()
        with pytest.raises((FileNotFoundError, ConnectionRefusedError)):
            await asyncio.open_unix_connection(str(sock))
        logged_by_server = process.stderr.read().decode()
        assert "lsp/shared.py changed: this server exits" in logged_by_server
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stderr.close()


def test_a_module_file_changed_after_the_start_is_changed_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module stamped when first seen (imported by a request, after the start) may have
    been imported before or after its file changed: changed code, as a file changed
    after its stamp."""
    from types import ModuleType

    from ivycheck.lsp.loaded_code import LoadedCode

    early, late = tmp_path / "early.py", tmp_path / "late.py"
    monkeypatch.setitem(sys.modules, "pkg", ModuleType("pkg"))  # no file: nothing to stamp
    monkeypatch.setitem(sys.modules, "pkgs.other", ModuleType("pkgs.other"))  # not the package
    for name, path in (("pkg.early", early), ("pkg.late", late)):
        path.write_text("")
        module = ModuleType(name)
        module.__file__ = str(path)
        monkeypatch.setitem(sys.modules, name, module)
    started = max(early.stat().st_ctime_ns, late.stat().st_ctime_ns) + 10**9
    loaded = LoadedCode("pkg", started)  # both files older than the start
    assert loaded.changed() is None and set(loaded.stamps) == {str(early), str(late)}
    assert loaded.changed() is None
    early.write_text("x = 1\n")
    assert loaded.changed() == f"{early} changed"
    assert LoadedCode("pkg", started - 2 * 10**9).changed() == (
        f"{early} changed after the server started"
    )
    late.unlink()
    assert LoadedCode("pkg", time.time_ns() + 10**9).changed() == f"{late} is gone"
