"""The editor's settings (``ivycheck.*``), translated into the workspace's overrides.

``enable`` switches the server's diagnostics off without stopping it; ``select`` and
``ignore`` apply over ``[tool.ivycheck]`` as the command line's ``--select``/``--ignore``
do, through :meth:`~ivycheck.checker.run.workspace.Workspace.set_overrides`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ivycheck.checker.project.config import Overrides


@dataclass(frozen=True)
class Settings:
    """Client settings (``ivycheck.*``), applied over ``[tool.ivycheck]``."""

    enable: bool = True
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()

    @classmethod
    def from_client(cls, value: object) -> Settings:
        if not isinstance(value, dict):
            return cls()
        select = value.get("select")
        ignore = value.get("ignore")
        return cls(
            enable=bool(value.get("enable", True)),
            select=tuple(str(c) for c in select) if isinstance(select, list) and select else None,
            ignore=tuple(str(c) for c in ignore) if isinstance(ignore, list) else (),
        )

    @property
    def overrides(self) -> Overrides:
        return Overrides(select=self.select, ignore=self.ignore)
