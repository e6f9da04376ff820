"""Any file name gives a well-formed report in every format.

A name is bytes: it can hold ESC (which recoloured the terminal), a newline (which forged a
finding line), a bidirectional override, or bytes that are not UTF-8 (``--format gitlab``
raised ``UnicodeEncodeError``: an empty report and exit 1; ``--format junit`` wrote XML that
does not parse). Each format now gives the findings and exit status of a tree with plain
names, as valid UTF-8, with the name recoverable: quoted as git quotes it (text, JUnit), as
bytes beside a lossy name (JSON), percent-encoded (SARIF).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import urllib.parse
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from tests.helpers import IVYCHECK, REPO
from tests.integrations.test_flake8 import BAD_ORDER

FINDING = BAD_ORDER.encode()
NAMES = [
    b"esc\x1b[31mred.py",
    b"new\nline.py: IVY999 forged.py",
    b"undecodable\xff\xfe.py",
    b"bidi\xe2\x80\xaereversed.py",
    b'quote"back\\slash.py',
    b"plain caf\xc3\xa9.py",
]
FLAKE8 = Path(sys.executable).with_name("flake8")


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n", encoding="utf-8")
    for name in NAMES:
        with open(os.path.join(os.fsencode(root), name), "wb") as handle:
            handle.write(FINDING)
    return root


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    environment = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    return subprocess.run(
        [str(IVYCHECK), "--no-cache", *args, "."],
        cwd=root,
        capture_output=True,
        env={**environment, "NO_COLOR": "1"},
        timeout=120,
    )


def _unquote(quoted: str) -> bytes:
    """git's C-style quoting undone: the name's bytes."""
    if not quoted.startswith('"'):
        return quoted.encode("utf-8")
    body = quoted[1:-1].encode("utf-8")
    return body.decode("unicode_escape").encode("latin-1")


def _text_names(stdout: str) -> list[bytes]:
    names = []
    for line in stdout.splitlines():
        if line.startswith('"'):
            end = line.index('"', 1)
            while line[end - 1] == "\\" and line[end - 2] != "\\":
                end = line.index('"', end + 1)
            names.append(_unquote(line[: end + 1]))
            assert line[end + 1 :].startswith(":2:1: IVY005"), line
        else:
            name, rest = line.split(":", 1)
            names.append(name.encode("utf-8"))
            assert rest.startswith("2:1: IVY005"), line
    return sorted(names)


def _sent(output: bytes) -> str:
    """The report as text: it must be UTF-8 (strict)."""
    return output.decode("utf-8")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _tree(tmp_path_factory.mktemp("names"))


def test_text_quotes_names_as_git_does(tree: Path) -> None:
    done = _run(tree)
    assert done.returncode == 1, done.stderr
    assert b"Traceback" not in done.stderr
    text = _sent(done.stdout)
    assert "\x1b" not in text and "\u202e" not in text
    assert _text_names(text) == sorted(NAMES)


def test_json_is_valid_utf8_and_gives_the_bytes_back(tree: Path) -> None:
    done = _run(tree, "--format", "json")
    assert done.returncode == 1, done.stderr
    found = json.loads(_sent(done.stdout))
    schema = json.loads((REPO / "docs/json-output.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(found, schema)
    names = [
        base64.b64decode(d["filename_bytes"]) if "filename_bytes" in d else d["filename"].encode()
        for d in found
    ]
    assert sorted(names) == sorted(NAMES)
    assert [d["code"] for d in found] == ["IVY005"] * len(NAMES)


def test_sarif_uris_are_percent_encoded_bytes(tree: Path) -> None:
    done = _run(tree, "--format", "sarif")
    assert done.returncode == 1, done.stderr
    [run] = json.loads(_sent(done.stdout))["runs"]
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    ]
    assert all(uri.isascii() and " " not in uri for uri in uris)
    assert sorted(urllib.parse.unquote_to_bytes(uri) for uri in uris) == sorted(NAMES)


def test_gitlab_writes_every_finding(tree: Path) -> None:
    done = _run(tree, "--format", "gitlab")
    assert b"Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr
    issues = json.loads(_sent(done.stdout))
    assert [issue["check_name"] for issue in issues] == ["IVY005"] * len(NAMES)
    assert len({issue["fingerprint"] for issue in issues}) == len(NAMES)


def test_junit_is_well_formed_xml(tree: Path) -> None:
    done = _run(tree, "--format", "junit")
    assert done.returncode == 1, done.stderr
    root = ET.fromstring(done.stdout)
    suites = root.findall("testsuite")
    assert sorted(_unquote(suite.get("name", "")) for suite in suites) == sorted(NAMES)


def test_github_annotations_are_utf8_lines(tree: Path) -> None:
    done = _run(tree, "--format", "github")
    assert done.returncode == 1, done.stderr
    lines = _sent(done.stdout).splitlines()
    assert len(lines) == len(NAMES)
    assert all(line.startswith("::error ") and "\x1b" not in line for line in lines)


def test_show_files_quotes_names_as_the_text_report(tree: Path) -> None:
    done = _run(tree, "--show-files")
    assert done.returncode == 0, done.stderr
    listing = _sent(done.stdout)
    assert "\x1b" not in listing and "\u202e" not in listing
    names = [_unquote(line.split("\t")[0]) for line in listing.splitlines()]
    assert sorted(os.path.basename(name) for name in names) == sorted(NAMES)


@pytest.mark.parametrize("mode", [(), ("--show-files",)], ids=["check", "show-files"])
def test_a_missing_path_is_named_without_its_controls(tree: Path, mode: tuple[str, ...]) -> None:
    """The problem line on standard error escapes the name as the text report does: ESC
    cannot recolour the terminal, a newline cannot start a line of its own."""
    done = _run(tree, *mode, "missing\x1b[31m\nIVY999 forged.py")
    problems = _sent(done.stderr)
    assert "\x1b" not in problems and "Traceback" not in problems
    [line] = [line for line in problems.splitlines() if "no such file" in line]
    assert "missing\\033[31m\\nIVY999 forged.py" in line


def test_flake8_reports_every_file(tree: Path) -> None:
    """flake8 prints the names itself, and its own formatter cannot write a name that is not
    UTF-8 (``UnicodeEncodeError`` in ``flake8/formatting/base.py``, with or without this
    plugin): every other name is checked."""
    names = [os.fsdecode(name) for name in NAMES if _is_utf8(name)]
    done = subprocess.run(
        [str(FLAKE8), "--ivycheck-no-cache", "--select", "IVY", *names],
        cwd=tree,
        capture_output=True,
        timeout=120,
    )
    assert b"Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1
    assert done.stdout.count(b" IVY005 ") == len(names)


def _is_utf8(name: bytes) -> bool:
    try:
        name.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@pytest.mark.asyncio
async def test_the_language_server_checks_files_with_odd_names(tmp_path: Path) -> None:
    """Every UTF-8 name (a URI percent-encodes it): the diagnostics come under the URI the
    client opened the document with, also after the index is complete (IVY005 needs it).
    A workspace holding a name that is not UTF-8 is
    :func:`test_the_language_server_with_an_undecodable_name_in_the_workspace`."""
    from tests.lsp.harness import open_document, published, server

    root = _tree(tmp_path)
    os.unlink(os.path.join(os.fsencode(root), NAMES[2]))
    async with server(root) as client:
        for name in NAMES:
            if not _is_utf8(name):
                continue
            document = open_document(client, root / os.fsdecode(name), FINDING.decode())
            found = await published(client, document, lambda d: len(d) > 0)
            assert [(d.range.start.line, d.code) for d in found] == [(1, "IVY005")], name


@pytest.mark.asyncio
async def test_the_language_server_with_an_undecodable_name_in_the_workspace(
    tmp_path: Path,
) -> None:
    """The workspace scan went through a name that is not UTF-8 (building its URI raised
    ``UnicodeEncodeError``, and nothing was published): the open document gets its
    findings, and the closed file its own under the percent-encoded bytes of its path."""
    from tests.lsp.harness import open_document, published, server

    root = _tree(tmp_path)
    undecodable = "file://" + urllib.parse.quote(os.path.join(os.fsencode(root), NAMES[2]))
    async with server(root) as client:
        document = open_document(client, root / os.fsdecode(NAMES[0]), FINDING.decode())
        found = await published(client, document, lambda d: len(d) > 0, timeout=20)
        closed = await published(client, undecodable, lambda d: len(d) > 0, timeout=20)
    assert [(d.range.start.line, d.code) for d in found] == [(1, "IVY005")]
    assert [(d.range.start.line, d.code) for d in closed] == [(1, "IVY005")]
