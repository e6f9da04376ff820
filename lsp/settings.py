"""The editor's settings (``ivycheck.*``), translated into the workspace's overrides.

``enable`` switches the server's diagnostics off without stopping it; ``select`` and
``ignore`` apply over ``[tool.ivycheck]`` as the command line's ``--select``/``--ignore``
do, through :meth:`~ivycheck.checker.run.projects.Projects.set_overrides`;
``diagnosticsScope`` is ``workspace`` (the files that are not open too: workspace
diagnostics, or published for a client that cannot pull) or ``openFiles`` (only the open
documents, as Pylance's ``diagnosticMode: openFilesOnly``; the index is still built, the
cross-file rules need it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ivycheck.checker.project.config import Overrides

Scope = Literal["openFiles", "workspace"]
SCOPES: tuple[Scope, ...] = ("openFiles", "workspace")


@dataclass(frozen=True)
class Settings:
    """Client settings (``ivycheck.*``), applied over ``[tool.ivycheck]``."""

    enable: bool = True
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    diagnostics_scope: Scope = "workspace"

    @classmethod
    def from_client(cls, value: object) -> Settings:
        if not isinstance(value, dict):
            return cls()
        select = value.get("select")
        ignore = value.get("ignore")
        scope = value.get("diagnosticsScope")
        return cls(
            enable=bool(value.get("enable", True)),
            select=tuple(str(c) for c in select) if isinstance(select, list) and select else None,
            ignore=tuple(str(c) for c in ignore) if isinstance(ignore, list) else (),
            diagnostics_scope=next((s for s in SCOPES if s == scope), "workspace"),
        )

    @property
    def workspace_wide(self) -> bool:
        """Whether the files that are not open get diagnostics too."""
        return self.enable and self.diagnostics_scope == "workspace"

    @property
    def overrides(self) -> Overrides:
        return Overrides(select=self.select, ignore=self.ignore)
