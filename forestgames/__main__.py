"""``python -m forestgames``: the ``forestgames`` command."""

from forestgames.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
