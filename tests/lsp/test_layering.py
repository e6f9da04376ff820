"""The server stays a thin translation layer over the engine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import write_tree

API = "ivy/functional/ivy/special.py"
KEYWORD_OUT = """\
@handle_out_argument
def sinh(x, out=None):
    return current_backend(x).sinh(x, out=out)
"""
"""``out`` not keyword-only: IVY008, a finding of the file alone (no index needed)."""


def test_server_module_has_no_rule_logic() -> None:
    """Handlers translate; rules live in rules/ (a guard against logic creeping in)."""
    source = (Path(__file__).parents[2] / "lsp" / "server.py").read_text()
    assert "import libcst" not in source
    assert "IVY005" not in source


START_AND_CHECK = """
import json, sys
from pathlib import Path
from ivycheck.lsp.server import server
path = Path(sys.argv[1])
text = path.read_text()
server.project.update(path, text)
found = server.project.check(path, text)
print(json.dumps([[d.code for d in found], sorted(m for m in sys.modules if m.startswith("libcst"))]))
"""


def test_start_up_and_diagnostics_need_no_libcst(tmp_path: Path) -> None:
    """libcst renders a fix's text, nothing else: the server's start and its diagnostics
    (what a window reload waits for) do without it, a tenth of a second of imports and
    tens of MB less. Code actions, which render fixes, import it when first asked."""
    path = write_tree(tmp_path, {"pyproject.toml": "[tool.ivycheck]\n", API: KEYWORD_OUT}) / API
    done = subprocess.run(
        [sys.executable, "-c", START_AND_CHECK, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    codes, loaded = json.loads(done.stdout)
    assert codes == ["IVY008"]
    assert loaded == []
