"""The ivycheck checker, in layers (lowest first; ``scripts/import_graph.py`` and
``tests/checker/test_layering.py`` keep the order):

- :mod:`.base` — the finding record, text edits, positions, source files;
- :mod:`.project` — project root, configuration, discovery, file summaries, the index;
- :mod:`.noqa` — ``# noqa`` comments, read once per file;
- :mod:`.core` — rules, the registry, the walk, the engine that checks and fixes a file;
- :mod:`.rule_api` — the one surface rule authors import (rules sit above it);
- :mod:`.run` — the workspace every front end uses, the runner, cache and baseline;
- :mod:`.frontends` — the command, reporters, the flake8 and mypy plugins.
"""
