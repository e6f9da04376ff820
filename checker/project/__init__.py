"""What a project is: its root, configuration, files and the index of what they define.

:mod:`.roots` finds the project a path belongs to; :mod:`.conventions` holds Ivy's defaults
(decorator order, backends, where each part lives); :mod:`.config` reads and validates
``[tool.ivycheck]`` (the rule codes it validates selectors against are passed in: this
layer does not know the rules); :mod:`.selectors` parses rule selectors; :mod:`.discovery`
finds the files; :mod:`.summary` summarizes one file with CPython's ``ast`` and
:mod:`.index` holds every file's summary for cross-file rules.
"""
