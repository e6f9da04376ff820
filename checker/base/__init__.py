"""What every layer of the checker stands on, with no knowledge of Ivy or of rules.

The finding record (:mod:`.diagnostics`), text edits and positions (:mod:`.textedit`,
:mod:`.positions`), reading and writing source files safely (:mod:`.sourcefile`), CPython's
tree of a text and the trees a run keeps (:mod:`.trees`), a deep-stack call for pathological input
(:mod:`.isolation`), pausing the cyclic collector (:mod:`.collector`) and the JSON codec of
the cache (:mod:`.datacodec`).
"""
