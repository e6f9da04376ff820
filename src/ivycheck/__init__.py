"""ivycheck: a checker for out=/copy=/view semantics in Ivy-style array code, and its runtime."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ivycheck")
except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
    __version__ = "0.0.0"

__all__ = ["__version__"]
