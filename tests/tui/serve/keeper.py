"""The server's table keeper with throwaway folders, and a served app's link to it over a socket pair
(the `keeper` fixture in conftest.py builds one per test)."""

from __future__ import annotations

import socket
from pathlib import Path

from coldwater.tui import serve
from coldwater.tui.serve import applink, database, keys, tables

ALICE, BOB, CAROL = b"alice-key", b"bob-key", b"carol-key"


def new_keeper(tmp_path: Path) -> tuple[tables.ServerTables, database.Store]:
    root = tmp_path / "data"
    store = database.Store(database.db_path(root))
    t = tables.ServerTables(
        root,
        home_of=lambda blob: serve.player_home(root, blob),
        known_keys=lambda: {ALICE, BOB} | keys.known_keys(root),
        fingerprint_of=serve.key_fingerprint,
        bind="127.0.0.1",
        advertise=False,
        max_tables=3,
        say=lambda line: None,
        store=store,
    )
    return t, store


def link_for(keeper: tables.ServerTables, blob: bytes) -> applink.ServeLink:
    """A served app's end, attached as `blob`'s key (the key a request counts as)."""
    ours, theirs = socket.socketpair()
    keeper.attach(blob, ours)
    return applink.ServeLink(theirs.detach())
