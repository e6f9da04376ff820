"""``python -m ivycheck.lsp`` starts the language server."""

from ivycheck.lsp.cli import main

raise SystemExit(main())
