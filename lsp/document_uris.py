"""File URIs as the client sees them.

A client keys its diagnostics by the exact URI string it sent (``file:///p/sp%20ace.py``),
so the server answers an open document under that string, never one rebuilt from the
path. For a file the client has not opened, the server makes the URI: every byte of the
name outside the unreserved set percent-encoded (a space, ``[``, ESC, a non-ASCII letter
as its UTF-8 bytes, and a name that is not UTF-8 as its raw bytes), so any name the file
system holds has a URI and none can make building one raise.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote


def file_uri(path: Path) -> str:
    """The ``file:`` URI of ``path``, its bytes percent-encoded (a name that is not
    UTF-8 is surrogate-escaped in Python: ``as_uri`` encodes the original bytes)."""
    return path.absolute().as_uri()


def document_key(uri: str) -> str:
    """What two URIs naming the same document share, whatever characters each client
    chose to percent-encode: the key pygls's workspace files an open document under."""
    return unquote(uri)
