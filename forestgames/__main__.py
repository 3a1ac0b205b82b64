"""``python -m forestgames``: the ``forestgames`` command."""

from forestgames.cli import main

raise SystemExit(main())
