"""The command-line comforts a ruff or flake8 user expects, on the real ``ivycheck``
process: a reason on every IVY000, ``--output-file``, "did you mean" for configuration
keys and backend names, and a summary that says what this run did."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import REPO, run_ivycheck, write_tree


def test_a_file_cpython_cannot_parse_for_memory_says_why(project: Path) -> None:
    """CPython raises a bare ``MemoryError`` (no message) for 100,000 unary minuses."""
    write_tree(project, {"deep.py": "x = " + "-" * 100_000 + "1\n"})
    done = run_ivycheck("deep.py", "--no-cache", cwd=project)
    assert done.returncode == 1
    assert done.stdout.strip() == (
        "deep.py:1:1: IVY000 cannot parse file: "
        "too deeply nested / out of memory while parsing (MemoryError)"
    )


def test_an_unknown_config_key_gets_the_closest_known_one(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.ivycheck]\nper-file-ignore = {}\n")
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 2
    assert (
        f"ivycheck: error: {project / 'pyproject.toml'}: unknown key 'per-file-ignore' in "
        "[tool.ivycheck]; did you mean 'per-file-ignores'? (known keys: "
    ) in done.stderr


def test_an_unknown_backend_name_is_an_error_with_a_suggestion(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.ivycheck]\nbackends = { tensorflw = ['lib/tf/**'] }\n"
    )
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 2
    assert (
        "[tool.ivycheck] backends: unknown backend 'tensorflw'; did you mean 'tensorflow'? "
        "(known backends: numpy, torch, jax, tensorflow, paddle, mxnet)"
    ) in done.stderr


def test_every_backend_folder_of_the_ivy_snapshots_is_a_known_backend_name(
    project: Path,
) -> None:
    """The names ``backends`` accepts include each backend Ivy's own tree has."""
    corpora = REPO.parent / "shared" / "corpora"
    folders = sorted(
        {p.name for p in corpora.glob("ivy-*/ivy/functional/backends/*") if p.is_dir()}
        - {"__pycache__"}
    )
    assert folders, f"no Ivy snapshot under {corpora}"
    table = "".join(f"{name} = ['lib/{name}/**']\n" for name in folders)
    (project / "pyproject.toml").write_text(f"[tool.ivycheck.backends]\n{table}")
    write_tree(project, {"lib/paddle/a.py": "x = 1\n"})
    done = run_ivycheck("--show-files", ".", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "lib/paddle/a.py\tbackend:paddle" in done.stdout
