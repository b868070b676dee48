"""Which of a game's chance nodes are beacon draws and which come off an encrypted deck (docs/fairplay.md).

What each game deals is its own declaration (``Game.dealing``, core/dealing.py);
this module reaches it by the game's name through the registry and builds the
cryptographic decks from it:

- :func:`plan` reads only what every peer's view shows (the pending chance node), so a
  peer with no full state can tell what the next chance node needs: a :class:`Beacon`
  (a hash-chain beacon draws it) or a :class:`FromDeck` (the next position of an
  encrypted deck, each part opened to everyone, :data:`ALL`, to one seat, or to nobody,
  :data:`NOBODY`, for now);
- :func:`decks` lists the decks a game seals, built from the opening position (which
  every peer computes from the joint seed: decks are not shuffled at setup);
- :func:`merged` forms a deck from what others left;
- :func:`checked_by_the_game` turns the game's refusal of a deal (``DealError``) into this dealer's.

The mapping is checked against :func:`coldwater.net.fairplay.classify` over whole
random games (tests/net/fairdeal/test_fairdeal.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from coldwater.core import games
from coldwater.core.dealing import ALL, NOBODY, Beacon, Cards, DealError, Dealing, FromDeck, Plan
from coldwater.core.state import State

from .deck import DeckSpec, FairDealError, starting_deck
from .group import Point
from .wire import Card

__all__ = [
    "ALL",
    "NOBODY",
    "Beacon",
    "FromDeck",
    "Plan",
    "checked_by_the_game",
    "dealing",
    "decks",
    "merged",
    "plan",
    "spec",
]


def dealing(game: str) -> Dealing | None:
    """The dealer's declaration of the game named `game` (None: a game that declares none, or no game)."""
    try:
        return games.get(game).dealing
    except KeyError:
        return None


@contextmanager
def checked_by_the_game() -> Iterator[None]:
    """A slot map's refusal (core/dealing.py) as this dealer's, naming the same seats."""
    try:
        yield
    except DealError as e:
        raise FairDealError(str(e), e.culprits) from None


def _declared(game: str) -> Dealing:
    got = dealing(game)
    if got is None:
        raise ValueError(f"no chance mapping for game {game!r}")
    return got


def plan(game: str, view: State[Any, Any]) -> Plan:
    """What the pending chance node of `view` (any seat's view, or the full state) needs at a LAN table."""
    return _declared(game).plan(view)


def spec(cards: Cards) -> DeckSpec:
    return DeckSpec(cards.id, cards.cards, cards.family)


def decks(game: str, start: State[Any, Any]) -> list[DeckSpec]:
    """The decks `game` seals, from its opening position `start` (labels are card ids as text)."""
    return [spec(c) for c in _declared(game).decks(start)]


def merged(
    game: str, deck: str, start: State[Any, Any], table_key: Point, left: Mapping[str, Sequence[Card]]
) -> tuple[DeckSpec, tuple[Card, ...]]:
    """A deck formed from what is `left` of others (their undealt ciphertexts), for every seat to reshuffle.

    Which cards are left is secret, so the spec lists the whole family (every card the
    deck may hold) and the deck's size is that of the returned starting ciphertexts:
    ``Deck(spec, keys, start=...)``. Cards that were public until now start afresh under
    the table key, ahead of what the source decks left.
    """
    d = _declared(game)
    if deck not in d.merged:
        raise ValueError(f"{game} has no merged deck {deck!r}")
    m = d.merge(deck, start)
    fresh = starting_deck(DeckSpec(m.cards.id, m.fresh, m.cards.family), table_key) if m.fresh else ()
    kept = tuple(c for src in m.sources for c in left.get(src, ()))
    return spec(m.cards), fresh + kept
