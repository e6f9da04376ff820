"""The mypy plugin's entry point: ``plugins = ["ivycheck.mypy"]`` in the mypy config.

The implementation is :mod:`ivycheck.checker.frontends.mypy_plugin`.
"""

from __future__ import annotations

from ivycheck.checker.frontends.mypy_plugin import plugin

__all__ = ["plugin"]
