"""`coldwater serve`: the app over SSH, for friends who have nothing but `ssh` (docs/ssh.md).

The modules, in the order a connection meets them:

- ``config``: ``ServeConfig`` (every limit) and the command line that makes one;
- ``command``: ``main``, what ``coldwater serve`` runs; ``admin`` its ``--backup`` and ``--ratings``;
- ``keys``: who a connection is (its SSH key, fingerprints, the key's own data folder), the host key
  and the allowed list; ``sshlib`` imports asyncssh once, quietly;
- ``server``: the ``Server`` (listening, one app per key, reaping, stopping);
- ``connection``: one SSH connection's authentication and its sessionless cap;
- ``session``: one SSH session, showing its key's app; ``process``: that app in its pseudo-terminal;
- ``control``: the words of the control path between a served app and the server; ``applink`` the
  app's end of it, ``tables`` the server's (the live tables it hosts);
- ``turns``: turn-based tables; ``deals``: the deal of the day; ``notify``: your-turn notices;
- ``database``: the server's SQLite data; ``history`` and ``ratings``: what it remembers of games.

The public names below are loaded on first use: a served app imports ``applink`` at every start, and
neither it nor anything else that imports this package pays for asyncssh or the server until it asks
for them. mypy reads the same names from the ``TYPE_CHECKING`` block with their real types.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .applink import ServeLink, ServerUnavailable, link, served_key
    from .command import main, serve_forever
    from .config import DEFAULT_PORT, ServeConfig, parse_args
    from .control import Failed, Opened, OpenTable, ServedTable
    from .keys import key_fingerprint, openssh_fingerprint, player_home
    from .server import SHUTDOWN_REASON, Server

_EXPORTS = {
    "ServeLink": "applink",
    "ServerUnavailable": "applink",
    "link": "applink",
    "served_key": "applink",
    "main": "command",
    "serve_forever": "command",
    "DEFAULT_PORT": "config",
    "ServeConfig": "config",
    "parse_args": "config",
    "Failed": "control",
    "OpenTable": "control",
    "Opened": "control",
    "ServedTable": "control",
    "key_fingerprint": "keys",
    "openssh_fingerprint": "keys",
    "player_home": "keys",
    "SHUTDOWN_REASON": "server",
    "Server": "server",
}

__all__ = [
    "DEFAULT_PORT",
    "SHUTDOWN_REASON",
    "Failed",
    "OpenTable",
    "Opened",
    "ServeConfig",
    "ServeLink",
    "ServedTable",
    "Server",
    "ServerUnavailable",
    "key_fingerprint",
    "link",
    "main",
    "openssh_fingerprint",
    "parse_args",
    "player_home",
    "serve_forever",
    "served_key",
]
"""The names above, in the TYPE_CHECKING block and in _EXPORTS alike (tests/tui/serve/test_exports.py)."""


if not TYPE_CHECKING:  # at run time only: mypy takes the names above, typed

    def __getattr__(name: str) -> object:
        module = _EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module 'coldwater.tui.serve' has no attribute {name!r}")
        return getattr(importlib.import_module(f"coldwater.tui.serve.{module}"), name)
