"""A run over many files: the workspace every front end builds its project through
(:mod:`.workspace`), the runner that checks and fixes files in parallel (:mod:`.runner`),
the index built with the result cache (:mod:`.indexing`, :mod:`.cache`), and adoption in an
existing code base (:mod:`.baseline`, :mod:`.adoption`, :mod:`.add_noqa`)."""
