"""LAN play: find a table, sit down, play a whole game peer to peer.

The public API (documented in docs/lan.md) is small:

- ``open_table(game, name=..., seats=[...])`` → a listening, advertised :class:`TableHost`;
- ``TableBrowser`` (live list of :class:`Listing`) and ``browse(seconds)`` (one-shot);
- ``join_table(name | "HOST:PORT" | listing, ...)`` → a seated :class:`TablePeer`;
- ``watch_table(name | "HOST:PORT" | listing, ...)`` → a :class:`TableWatcher` (public view only);
- ``open_rematch(host)`` / ``join_rematch(peer)`` / ``watch_rematch(watcher)`` → the same
  table again after the end;
- the events both publish (``subscribe(listener)``) and :class:`Result`;
- :class:`Refusal`, raised with a reason for a person.

Names are loaded on first use, so importing ``coldwater.net`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "open_table": "lan",
    "join_table": "lan",
    "watch_table": "lan",
    "open_rematch": "lan",
    "join_rematch": "lan",
    "watch_rematch": "lan",
    "lan_dir": "lan",
    "default_dealer": "lan",
    "TableBrowser": "discovery",
    "Listing": "discovery",
    "browse": "discovery",
    "TableHost": "session",
    "TablePeer": "session",
    "TableWatcher": "session",
    "Result": "session",
    "bot_chooser": "session",
    "LobbyChanged": "session",
    "ChatReceived": "session",
    "PresenceChanged": "session",
    "GameStarted": "session",
    "StepApplied": "session",
    "Problem": "session",
    "HostChanged": "session",
    "HostLeft": "session",
    "Finished": "session",
    "RematchOffered": "session",
    "RematchAnswered": "session",
    "Event": "session",
    "Refusal": "transport",
    "Identity": "identity",
    "load_or_create": "identity",
    "fingerprint": "identity",
    "SeatInfo": "messages",
    "PROTOCOL": "messages",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'coldwater.net' has no attribute {name!r}")
    return getattr(importlib.import_module(f"coldwater.net.{module}"), name)
