"""``python -m ivycheck`` is the ``ivycheck`` command."""

from ivycheck.cli import main

raise SystemExit(main())
