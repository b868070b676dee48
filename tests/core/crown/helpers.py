"""Building test positions for Coldwater Crown.

Chance is an input: positions are reached by applying the chance outcomes a
test chooses (``chance(s, "bait green", ...)``). Where a worked example starts
from a position deep in a game, the fixture arranges it directly (bait in
Zones, a given card in a board Zone) while keeping every piece accounted for,
so the conservation checks still hold.
"""

from __future__ import annotations

from typing import Any

from coldwater.core.crown.actions import CODEC
from coldwater.core.crown.game import GAME
from coldwater.core.crown.model import COLOUR_INDEX, LOCATION_INDEX, SPACE_INDEX, CrownData, Fish, Tackle
from coldwater.core.crown.turns import advance
from coldwater.core.state import CHANCE

from .hooks import conservation

T = GAME.tables


def card(species: str, weight: int) -> int:
    """The id of the card of `species` weighing `weight` lb in the shipped content."""
    for c in range(1, 61):
        if T.species_of[c] == species and T.weight[c] == weight:
            return c
    raise KeyError((species, weight))


def play(s: Any, *moves: str) -> None:
    """Apply actions (and chance outcomes) given in notation, in order."""
    for m in moves:
        s.apply(CODEC.parse(m))


def settle(s: Any) -> None:
    """Resolve pending chance draws from the seed until a player decides."""
    while s.current == CHANCE:
        s.apply(s.sample_chance())


def settle_until_task(s: Any, kind: str) -> None:
    """Resolve chance draws until the next one is the queued task `kind` (e.g. a silent draw)."""
    from coldwater.core.crown.turns import derived

    while s.current == CHANCE and not (derived(s.data) is None and s.data.tasks and s.data.tasks[0].kind == kind):
        s.apply(s.sample_chance())


def started(players: int, seed: str = "example", **options: Any) -> Any:
    s = GAME.new(players, seed=seed, options=options or None)
    settle(s)
    return s


def refresh(s: Any) -> None:
    """After arranging data by hand: recompute who acts and drop cached legal moves."""
    advance(s.data, T)
    s._legal = None
    s._legal_set = None
    conservation(s.data)


def set_zones(s: Any, seat: int, zones: dict[int, str]) -> None:
    """Give `seat` exactly these bait (``{3: "green,red"}``), moving bait to and from the bag."""
    d: CrownData = s.data
    p = d.parties[seat]
    for z, text in zones.items():
        zone = p.zones[z - 3]
        for c in range(6):
            d.bag[c] += zone[c]
            zone[c] = 0
        for name in filter(None, text.split(",")):
            c = COLOUR_INDEX[name]
            if d.bag[c] == 0:  # take it from the discard pile instead
                d.discard[c] -= 1
                d.bag[c] += 1
            d.bag[c] -= 1
            zone[c] += 1


def set_discard(s: Any, colour: str, n: int) -> None:
    d: CrownData = s.data
    c = COLOUR_INDEX[colour]
    d.bag[c] += d.discard[c] - n
    d.discard[c] = n
    assert d.bag[c] >= 0


def _locate(d: CrownData, cid: int) -> tuple[list[Any], int]:
    for row in d.zones:
        for i, f in enumerate(row):
            if f is not None and f.card == cid:
                return row, i
    for i, f in enumerate(d.tops):
        if f is not None and f.card == cid:
            return d.tops, i
    for deck in d.decks:
        for i, f in enumerate(deck):
            if f.card == cid:
                return deck, i
    for p in d.parties:
        for i, f in enumerate(p.fish):
            if f.card == cid:
                return p.fish, i
    raise KeyError(cid)


def swap_card(s: Any, cid: int, holder: list[Any], index: int) -> None:
    """Put card `cid` at ``holder[index]``; what was there goes where `cid` was."""
    d: CrownData = s.data
    src, i = _locate(d, cid)
    a, b = src[i], holder[index]
    assert a is not None and b is not None
    src[i], holder[index] = b, a
    for deck in d.decks:
        deck.sort(key=lambda f: f.card)


def board(s: Any, loc: str, zone: int, cid: int) -> None:
    """Put card `cid` in `zone` at `loc` on the game board."""
    swap_card(s, cid, s.data.zones[LOCATION_INDEX[loc]], zone - 3)


def deck_top(s: Any, loc: str, cid: int) -> None:
    swap_card(s, cid, s.data.tops, LOCATION_INDEX[loc])


def give_fish(s: Any, seat: int, cids: list[int]) -> None:
    """Hand `seat` these caught fish, taken from the decks (board cards are swapped out first)."""
    d: CrownData = s.data
    for cid in cids:
        src, i = _locate(d, cid)
        if src not in d.decks:
            li = T.location_of[cid]
            spare = next(f.card for f in d.decks[li] if f.card not in cids)
            swap_card(s, spare, src, i)
            src, i = _locate(d, cid)
        f = src.pop(i)
        d.parties[seat].fish.append(Fish(f.species, f.card))


def give_tackle(s: Any, seat: int, *kinds: str) -> None:
    d: CrownData = s.data
    p = d.parties[seat]
    for t in p.tackle:
        d.tackle_stack.append(t.kind)
    p.tackle = []
    for k in kinds:
        d.tackle_stack.remove(k)
        p.tackle.append(Tackle(k))
    d.tackle_stack.sort()


def tokens(s: Any, **sides: int) -> None:
    """Set the Angler tokens on the board, e.g. ``tokens(s, red=1, black=2, green=1)``."""
    d: CrownData = s.data
    d.tokens = [0] * 7
    for name, side in sides.items():
        d.tokens[SPACE_INDEX[name]] = side


def legal_text(s: Any) -> list[str]:
    return [str(a) for a in s.legal()]
