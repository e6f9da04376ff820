"""What users start: the command (:mod:`.cli`) with its reporters (:mod:`.reporters`),
``--explain``/``--show-settings`` (:mod:`.explain`, :mod:`.introspection`), its exit
statuses (:mod:`.exit_status`), and the flake8 and mypy plugins (:mod:`.flake8_plugin`,
:mod:`.mypy_plugin`). The language server is the other front end, in ``lsp/``."""
