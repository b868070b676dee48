"""Which of a game's chance nodes are beacon draws and which come off an encrypted deck (docs/fairplay.md).

:func:`plan` reads only what every peer's view shows (the pending chance node), so
a peer with no full state can tell what the next chance node needs:

- :class:`Beacon`: the outcome is public and its weights follow from public
  knowledge (a bait from the bag, a Master Angler flip): a hash-chain beacon draws it.
- :class:`FromDeck`: the next position of an encrypted deck, each part opened to
  everyone (``ALL``), to one seat, or to nobody (``NOBODY``) for now.

:func:`decks` lists the decks a game seals, built from the opening position (which
every peer computes from the joint seed: decks are not shuffled at setup). The
mapping is checked against :func:`coldwater.net.fairplay.classify` over whole
random games (tests/net/test_fairdeal.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

import msgspec

from coldwater.core.aquatica.setup import DIAMOND
from coldwater.core.state import State

from .deck import DeckSpec, starting_deck
from .group import Point
from .wire import Card

if TYPE_CHECKING:
    from coldwater.core.aquatica.state import AqState  # annotations only: not imported at run time

ALL: Final = -1
NOBODY: Final = -2


class Beacon(msgspec.Struct, frozen=True):
    what: str


class FromDeck(msgspec.Struct, frozen=True):
    deck: str
    opens: tuple[int, ...]
    """Per part: a seat, :data:`ALL` or :data:`NOBODY`."""


Plan = Beacon | FromDeck

CHARACTERS: Final = "aquatica/characters"
DIAMOND_DECK: Final = "aquatica/characters/diamond"
LOCATIONS: Final = "aquatica/locations"
KINGS: Final = "aquatica/kings"

MAPPED: Final = frozenset({"crown", "aquatica", "fisheries"})
"""The games :func:`plan` knows (the beacon decides by it for these: net/beacon.py)."""

_CROWN_LOCS: Final = ("shore", "river", "lake")
_AQ_TYPES: Final = ("shark", "ships", "civ", "volcano", "frosty")


def plan(game: str, view: State[Any, Any]) -> Plan:
    """What the pending chance node of `view` (any seat's view, or the full state) needs at a LAN table."""
    d = view.data
    if game == "crown":
        if d.node >= 0:
            if d.node < 3:
                return FromDeck(f"crown/fish/{_CROWN_LOCS[d.node]}", (ALL, NOBODY))  # species shows, card sealed
            return Beacon("master angler" if d.node == 3 else "mystery weight")
        task = d.tasks[0]
        if task.kind == "tackle":
            return FromDeck("crown/tackle", (task.seat,))
        return Beacon(task.kind)  # bait (fill, silent, ppdiscard), Master Angler cards, the tag tile
    if game == "aquatica":
        dr = d.draws[0]
        if dr.deck == "cd":
            return FromDeck(CHARACTERS, (ALL,))
        if dr.deck == "cd_disc":
            return FromDeck(DIAMOND_DECK, (NOBODY,))
        if dr.deck == "ld":
            return FromDeck(LOCATIONS, (ALL,))
        if dr.deck == "ld_disc":
            return FromDeck(f"{LOCATIONS}/{_AQ_TYPES[dr.arg]}", (NOBODY,))
        if dr.deck == "ld_keep":  # Tribes Solo only (solo keeps the local generator); for completeness
            return FromDeck(f"{LOCATIONS}/box/{_AQ_TYPES[dr.arg]}", (NOBODY,))
        if dr.deck == "king":
            return FromDeck(KINGS, (d.draft_order[0],))
        # Wild Mantas, goal tokens and Tribes: face up, from pools whose contents are public.
        return Beacon(dr.deck)
    if game == "fisheries":
        return Beacon("public")  # no hidden information at all
    raise ValueError(f"no chance mapping for game {game!r}")


def decks(game: str, start: State[Any, Any]) -> list[DeckSpec]:
    """The decks `game` seals, from its opening position `start` (labels are card ids as text)."""
    d = start.data
    if game == "crown":
        specs = [
            DeckSpec(f"crown/fish/{loc}", tuple((f.species, str(f.card)) for f in deck))
            for loc, deck in zip(_CROWN_LOCS, d.decks)
        ]
        # Pieces of one kind are alike, so a piece's label is its kind (equal cards encrypt unrelatedly).
        specs.append(DeckSpec("crown/tackle", tuple((str(k),) for k in d.tackle_stack)))
        return specs
    if game == "aquatica":
        k = cast("AqState", start).DECK  # the game is Aquatica
        specs = []
        diamond = [c for c in d.char_deck if c >= DIAMOND]
        if diamond:
            specs.append(DeckSpec(DIAMOND_DECK, tuple((str(c),) for c in diamond), CHARACTERS))
        specs.append(DeckSpec(KINGS, tuple((str(c),) for c in d.king_pool)))
        for t, name in enumerate(_AQ_TYPES):
            locs = [x for x in d.loc_deck if k.loc_type[x] == t]
            if locs:
                specs.append(DeckSpec(f"{LOCATIONS}/{name}", tuple((str(x),) for x in locs), LOCATIONS))
        # CHARACTERS and LOCATIONS are formed after the discards to the box, by
        # reshuffling what is left (see merged), so they are not listed here.
        return specs
    if game == "fisheries":
        return []
    raise ValueError(f"no chance mapping for game {game!r}")


def merged(
    game: str, deck: str, start: State[Any, Any], table_key: Point, left: Mapping[str, Sequence[Card]]
) -> tuple[DeckSpec, tuple[Card, ...]]:
    """A deck formed from what is `left` of others (their undealt ciphertexts), for every seat to reshuffle.

    Aquatica's Character deck is the ○ Characters (public until now: a fresh
    starting deck under the table key) and the ◇ ones not discarded; its Location
    deck is what each type's deck kept. Which cards are left is secret, so the spec
    lists the whole family (every card the deck may hold) and the deck's size is
    that of the returned starting ciphertexts: ``Deck(spec, keys, start=...)``.
    """
    if game != "aquatica" or deck not in (CHARACTERS, LOCATIONS):
        raise ValueError(f"{game} has no merged deck {deck!r}")
    d = start.data
    if deck == CHARACTERS:
        circle = tuple((str(c),) for c in d.char_deck if c < DIAMOND)
        diamond = tuple((str(c),) for c in d.char_deck if c >= DIAMOND)
        fresh = starting_deck(DeckSpec(CHARACTERS, circle, CHARACTERS), table_key)
        return DeckSpec(CHARACTERS, circle + diamond, CHARACTERS), fresh + tuple(left.get(DIAMOND_DECK, ()))
    every = tuple((str(x),) for x in d.loc_deck)
    kept = tuple(c for name in _AQ_TYPES for c in left.get(f"{LOCATIONS}/{name}", ()))
    return DeckSpec(LOCATIONS, every, LOCATIONS), kept
