"""``python -m ivycheck`` is the ``ivycheck`` command."""

from ivycheck.checker.cli import main

raise SystemExit(main())
