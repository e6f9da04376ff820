"""ivycheck: a checker for out=/copy=/view semantics in Ivy-style array code, and its runtime."""

__version__ = "0.1.0"
"""Kept equal to ``pyproject.toml``'s (a test checks it). Written out rather than read with
``importlib.metadata``, whose import alone cost 60 ms of every command-line run."""

__all__ = ["__version__"]
