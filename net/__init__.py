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

Names are loaded on first use, so importing ``coldwater.net`` stays cheap (the app's
cold start imports it). mypy reads the same names from the ``TYPE_CHECKING`` block
below with their real types, and never sees the lazy ``__getattr__``: a misspelt or
mistyped ``net.`` call is a type error, not an ``Any``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .discovery import Listing, TableBrowser, browse
    from .identity import Identity, fingerprint, load_or_create
    from .lan import (
        default_dealer,
        join_rematch,
        join_table,
        keep_record,
        lan_dir,
        open_rematch,
        open_table,
        watch_rematch,
        watch_table,
    )
    from .messages import PROTOCOL, SeatInfo
    from .party import Party
    from .session import (
        ChatReceived,
        Event,
        Finished,
        GameStarted,
        HostChanged,
        HostLeft,
        LobbyChanged,
        PresenceChanged,
        Problem,
        RematchAnswered,
        RematchOffered,
        Result,
        StepApplied,
        TableHost,
        TablePeer,
        TableWatcher,
        bot_chooser,
    )
    from .transport import Refusal

_EXPORTS = {
    "open_table": "lan",
    "join_table": "lan",
    "keep_record": "lan",
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
    "Party": "party",
}

__all__ = [
    "PROTOCOL",
    "ChatReceived",
    "Event",
    "Finished",
    "GameStarted",
    "HostChanged",
    "HostLeft",
    "Identity",
    "Listing",
    "LobbyChanged",
    "Party",
    "PresenceChanged",
    "Problem",
    "Refusal",
    "RematchAnswered",
    "RematchOffered",
    "Result",
    "SeatInfo",
    "StepApplied",
    "TableBrowser",
    "TableHost",
    "TablePeer",
    "TableWatcher",
    "bot_chooser",
    "browse",
    "default_dealer",
    "fingerprint",
    "join_rematch",
    "join_table",
    "keep_record",
    "lan_dir",
    "load_or_create",
    "open_rematch",
    "open_table",
    "watch_rematch",
    "watch_table",
]
"""The names above, in the TYPE_CHECKING block and in _EXPORTS alike (tests/test_net_exports.py)."""


if not TYPE_CHECKING:  # at run time only: mypy takes the names above, typed

    def __getattr__(name: str) -> object:
        module = _EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module 'coldwater.net' has no attribute {name!r}")
        return getattr(importlib.import_module(f"coldwater.net.{module}"), name)
