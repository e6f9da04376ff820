"""The mypy plugin knows that ``ivy.to_native`` returns a native array (real mypy).

``ivy.to_native`` is annotated ``Any -> Any`` (it returns non-arrays unchanged), so without
the plugin's hook a native array obtained that way and passed as ``out`` is invisible.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

MYPY = Path(sys.executable).with_name("mypy")
CONFIG = """\
[mypy]
plugins = ivycheck.mypy
strict = true

[ivycheck-mypy]
backends = numpy
"""
SOURCE = """\
from __future__ import annotations

import ivycheck.runtime as ivy
from ivycheck.runtime.functional.general import to_native

a = ivy.array([1.0, 2.0])
native = ivy.to_native(a)
ivy.exp(a, out=native)
ivy.sin(a, out=ivy.to_native(a))
ivy.cos(a, out=to_native(a))
kept = ivy.to_native([1, 2])
reveal_type(kept)
ivy.tan(a, out=a)
"""


def test_to_native_of_an_array_is_a_native_array_for_out(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text(CONFIG)
    (tmp_path / "case.py").write_text(SOURCE)
    done = subprocess.run(
        [str(MYPY), "--config-file", "mypy.ini", "--cache-dir", str(tmp_path / "cache"), "case.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    native_out = sorted(int(line.split(":")[1]) for line in lines if "[ivy-native-out]" in line)
    assert native_out == [8, 9, 10], done.stdout
    assert any("(numpy.ndarray)" in line for line in lines if "[ivy-native-out]" in line)
    # Anything but an Array is returned unchanged, and typed so.
    assert any(":12:" in line and 'Revealed type is "list[' in line for line in lines), done.stdout
