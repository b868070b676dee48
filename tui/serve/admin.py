"""The host's commands on a server's data, run beside (or without) a running `coldwater serve`.

``coldwater serve --backup FILE`` copies the database (database.backup: SQLite's online backup,
safe while the server writes); ``coldwater serve --ratings [--game GAME]`` prints every key's
rating per game (ratings.py). Both read the data folder the server uses (``COLDWATER_HOME``
or the per-user default), start no server and need no ``--allow``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from coldwater.net.play import paths
from coldwater.tui.serve import database


def command(argv: Sequence[str]) -> int | None:
    """Run the admin command `argv` names and return its exit status; None: `argv` names none."""
    if any(a == "--backup" or a.startswith("--backup=") for a in argv):
        return backup(argv)
    if "--ratings" in argv:
        return ratings(argv)
    return None


def backup(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(
        prog="coldwater serve --backup",
        description="Copy the server's database (keys, games, ratings) to FILE, safely while the server runs.",
    )
    p.add_argument("--backup", type=Path, required=True, metavar="FILE")
    a = p.parse_args(list(argv))
    source = database.db_path(paths.data_dir())
    try:
        version = database.backup(source, a.backup)
    except database.StoreError as e:
        print(f"coldwater serve: {e}", file=sys.stderr)
        return 1
    print(f"coldwater serve: backed up {source} (schema {version}) to {a.backup}")
    return 0


def ratings(argv: Sequence[str]) -> int:
    from coldwater.tui.serve.ratings import names_of, rate, report

    p = argparse.ArgumentParser(
        prog="coldwater serve --ratings", description="Every key's rating per game on this server, best first."
    )
    p.add_argument("--ratings", action="store_true", required=True)
    p.add_argument("--game", default="", help="only this game")
    a = p.parse_args(list(argv))
    path = database.db_path(paths.data_dir())
    if not path.exists():
        print(f"coldwater serve: no server database at {path} (has `coldwater serve` run here?)", file=sys.stderr)
        return 1
    try:
        store = database.Store(path)
    except database.StoreError as e:
        print(f"coldwater serve: {e}", file=sys.stderr)
        return 1
    try:
        results = store.results(game=a.game, limit=1_000_000)
    finally:
        store.close()
    print(report(rate(results), names_of(results)))
    return 0
