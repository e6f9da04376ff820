"""``# noqa``: :mod:`.comments` tokenizes a file's comments once for every reader (which
findings a directive silences, where one may be written); :mod:`.unused` finds the
directives that silenced nothing (IVY100)."""
