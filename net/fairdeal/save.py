"""A fair seat's save: its own secrets and every message it took, in order (docs/fairplay.md "Saves").

:meth:`FairSeat.save <coldwater.net.fairdeal.seat.FairSeat.save>` writes one and
:meth:`FairSeat.restore <coldwater.net.fairdeal.seat.FairSeat.restore>` replays it through the
seat's own rounds, with every check; this module is only the format. Each log entry is one
round as the seat took it (the tags are what a save on disk holds: they do not change).
"""

from __future__ import annotations

from typing import Any

import msgspec

from .wire import KeyShare, PassSecrets, ShuffledDeck, Strip, Word


class KeysEntry(msgspec.Struct, tag="keys", array_like=True):
    """The key round: every seat's key share."""

    shares: list[KeyShare]


class TipsEntry(msgspec.Struct, tag="tips", array_like=True):
    """Every seat's committed beacon chain tip, by seat."""

    tips: dict[int, bytes]


class PassEntry(msgspec.Struct, tag="pass", array_like=True):
    """One shuffle pass over a deck (this seat's own too: a pass is taken the same whoever made it)."""

    msg: ShuffledDeck


class PublicEntry(msgspec.Struct, tag="public", array_like=True):
    """A public draw: every seat's beacon link, by seat."""

    links: dict[int, bytes]


class DealEntry(msgspec.Struct, tag="deal", array_like=True):
    """A deck draw: every seat's strips of it."""

    strips: list[Strip]


class ActEntry(msgspec.Struct, tag="act", array_like=True):
    """A player's action: its public openings' strips, every namer's word, the strips of what it handed over."""

    action: str
    strips: list[Strip]
    words: list[Word]
    passed: list[Strip] = []


Entry = KeysEntry | TipsEntry | PassEntry | PublicEntry | DealEntry | ActEntry


class FairSave(msgspec.Struct, kw_only=True):
    """A seat's own secrets and every message it took, in order: restoring replays them.

    It holds this seat's key, chain end and pass secrets (its own, as a peer's save
    holds its chain today) and otherwise only what crossed the wire — ciphertexts,
    strips, links and public moves — so no other seat's sealed value is in it; the
    view and what the seat has read are rebuilt by the replay, with every check.
    """

    game: str
    players: int
    seat: int
    joint: bytes
    options: dict[str, Any] | None = None
    secret: bytes
    chain_end: bytes
    secrets: list[PassSecrets]
    log: list[Entry]
