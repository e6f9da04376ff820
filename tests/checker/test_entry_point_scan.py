"""The plug-in pre-scan never says "none" where :mod:`importlib.metadata` would find one."""

from __future__ import annotations

import sys
import zipfile
from importlib.machinery import BuiltinImporter, FrozenImporter, PathFinder
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from ivycheck.checker.base.entry_point_scan import may_declare

GROUP = "ivycheck.rules"


def _distribution(site: Path, name: str, entry_points_text: str | None) -> None:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    if entry_points_text is not None:
        (info / "entry_points.txt").write_text(entry_points_text)


def _find_distributions(cls: type, *args: object, **kwargs: object) -> object:
    """CPython 3.11's ``PathFinder.find_distributions``."""
    from importlib.metadata import MetadataPathFinder

    return MetadataPathFinder.find_distributions(*args, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder that is the whole ``sys.path``, so only its distributions count, and
    CPython's own finders the whole ``sys.meta_path``. The backport ``importlib_metadata``
    (Dask imports it, and so may another test in this process) adds a distribution finder
    of its own, which rightly makes the scan leave the answer to :mod:`importlib.metadata`,
    and removes ``PathFinder.find_distributions``, without which :mod:`importlib.metadata`
    finds nothing: that one is put back here for the test."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.setattr(sys, "path", [str(folder)])
    monkeypatch.setattr(sys, "meta_path", [BuiltinImporter, FrozenImporter, PathFinder])
    if not hasattr(PathFinder, "find_distributions"):  # importlib_metadata took it away
        monkeypatch.setattr(
            PathFinder, "find_distributions", classmethod(_find_distributions), raising=False
        )
    return folder


def test_no_distribution_declares_the_group(site: Path) -> None:
    _distribution(site, "plain", None)
    _distribution(site, "scripts", "[console_scripts]\nplain = plain:main\n")
    assert not may_declare(GROUP)
    assert list(entry_points(group=GROUP)) == []  # importlib.metadata agrees


def test_a_declaring_distribution_is_seen(site: Path) -> None:
    _distribution(site, "plain", None)
    _distribution(site, "ext", f"[{GROUP}]\next = ext_rules\n")
    assert may_declare(GROUP)
    assert [entry.value for entry in entry_points(group=GROUP)] == ["ext_rules"]


def test_an_archive_on_the_path_is_left_to_importlib_metadata(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("ext-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: ext\n")
        bundle.writestr("ext-1.0.dist-info/entry_points.txt", f"[{GROUP}]\next = ext_rules\n")
    monkeypatch.setattr(sys, "path", [str(site), str(archive)])
    assert may_declare(GROUP)
    assert [entry.value for entry in entry_points(group=GROUP)] == ["ext_rules"]


def test_another_distribution_finder_is_left_to_importlib_metadata(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Finder:
        @staticmethod
        def find_spec(*args: object) -> None:
            return None

        @staticmethod
        def find_distributions(*args: object) -> list[object]:
            return []

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder])
    assert may_declare(GROUP)


def test_missing_path_entries_are_skipped(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "path", [str(site / "gone"), str(site)])
    assert not may_declare(GROUP)


def test_metadata_folders_are_found_as_importlib_metadata_finds_them(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A metadata folder's suffix in any case, and a folder egg's ``EGG-INFO``: both
    declare entry points to :mod:`importlib.metadata`, so the scan must not say "none"."""
    shouting = site / "Shouting-1.0.DIST-INFO"
    shouting.mkdir()
    (shouting / "METADATA").write_text("Metadata-Version: 2.1\nName: shouting\nVersion: 1.0\n")
    (shouting / "entry_points.txt").write_text(f"[{GROUP}]\nloud = loud_rules\n")
    assert may_declare(GROUP)
    assert [entry.value for entry in entry_points(group=GROUP)] == ["loud_rules"]
    egg = tmp_path / "eggy-1.0-py3.11.egg"
    (egg / "EGG-INFO").mkdir(parents=True)
    (egg / "EGG-INFO" / "PKG-INFO").write_text("Metadata-Version: 1.1\nName: eggy\nVersion: 1.0\n")
    (egg / "EGG-INFO" / "entry_points.txt").write_text(f"[{GROUP}]\neggy = eggy_rules\n")
    monkeypatch.setattr(sys, "path", [str(egg)])
    assert may_declare(GROUP)
    assert [entry.value for entry in entry_points(group=GROUP)] == ["eggy_rules"]
