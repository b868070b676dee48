"""What a Crown move will do, in words, before it is made (the choice list's preview line).

Pure functions of a view (``CrownData`` as the person looking may know it) and the content
tables, like words.py, which uses the small answers here too (which tackle a catch plays,
a seat's fish in rank order). Every rule this words is the engine's own: a cast's bait and
emptied Zones, open spots, a Reel's emptied Zones, a fill's count, the tackle a catch plays
and the contest rank come from ``core/crown``, never a copy of its arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence

from coldwater.core.crown import casting, catching, contests, port, tackle
from coldwater.core.crown.actions import (
    Catch,
    CrownAction,
    Discard,
    EndTurn,
    Fill,
    Lure,
    Place,
    Reel,
    Remove,
    Route,
    SilentDraws,
    Submit,
    Take,
    TakeTackle,
    TakeTop,
    Zone6,
)
from coldwater.core.crown.content import Tables
from coldwater.core.crown.model import COLOUR_LOCATION, COLOURS, LOCATIONS, SPACES, CrownData

from .names import fish_name, ma_name, spots_letters

TACKLE_NAMES: dict[str, str] = {"rod": "Rod", "line": "Line"}


def tackle_used(d: CrownData, action: Catch) -> list[str]:
    """Which tackle a catch plays, by name: a Rod for another location, a Line for another Zone."""
    return [TACKLE_NAMES[k] for k in catching.tackle_for(d, action)]


def my_fish(d: CrownData, T: Tables, seat: int, species: str) -> list[int]:
    """`seat`'s known cards of `species` in the engine's rank order (heaviest first, earliest on ties)."""
    if not 0 <= seat < len(d.parties):
        return []
    known = [f for f in d.parties[seat].fish if f.species == species and f.card is not None]
    return [c for f in contests.ranked(T, known) if (c := f.card) is not None]


def take_words(T: Tables, card: int) -> str:
    return f"{ma_name(T, card)}: fill its spots ({spots_letters(T, card)}) with cast bait to catch it for 1 point"


def catch_words(d: CrownData, T: Tables, colour: int, zones: Sequence[int]) -> list[str]:
    """ "Zone 4 → the Perch" for each emptied Zone (what its default catch would be)."""
    li = COLOUR_LOCATION[colour]
    out = []
    for z in zones:
        fish = d.zones[li][z - 3]
        what = f"the {fish_name(T, fish.species)}" if fish is not None else "nothing (that Zone is empty)"
        extra = ""
        if z == 5:
            extra = " + tackle"
        elif z == 6 and d.tops[li] is not None:
            top = d.tops[li]
            assert top is not None
            extra = f" (or the {fish_name(T, top.species)} on the deck)"
        out.append(f"Zone {z} → {what}{extra}")
    return out


def cast_preview(d: CrownData, T: Tables, seat: int, colour: int, side: int) -> str:
    n, emptied = casting.cast_from(d.parties[seat].zones, colour, side)
    if n == 0:
        return f"casts nothing: you have no {COLOURS[colour]} bait"
    words = [f"casts {n} {COLOURS[colour]}"]
    spots = len(casting.open_cards(T, d.parties[seat], colour))
    if spots:
        words.append(f"{min(spots, n)} can go on your Master Angler cards")
    if emptied:
        words.append("empties " + ", ".join(catch_words(d, T, colour, emptied)))
    return "; ".join(words)


def space_preview(d: CrownData, T: Tables, seat: int, space: str, side: int) -> str:
    if space == "port":
        return "one Port action: fill a Zone or take a card" if side == 1 else "two Port actions"
    colour = COLOURS.index(space)
    return cast_preview(d, T, seat, colour, side)


def preview(d: CrownData, T: Tables, action: CrownAction) -> str:
    """What `action` will do, in words, where that is knowable before it is made ("" if not)."""
    seat = d.turn
    try:
        if isinstance(action, Place):
            return space_preview(d, T, seat, action.space, d.parties[seat].token)
        if isinstance(action, Remove):
            return space_preview(d, T, seat, action.space, d.tokens[SPACES.index(action.space)])
        if isinstance(action, Fill):
            return f"draws {port.to_fill(d.parties[seat], action.zone)} bait from the bag into Zone {action.zone}"
        if isinstance(action, Take):
            return take_words(T, action.card)
        if isinstance(action, Route):
            m = next(m for m in d.parties[seat].ma if m.card == action.card)
            left = casting.spots_left(T, m) - 1
            return (
                f"catches the {ma_name(T, action.card)} (1 point)"
                if left == 0
                else f"{left} spot{'s' if left != 1 else ''} left after this"
            )
        if isinstance(action, Discard):
            return "the bait goes to the discard pile"
        if isinstance(action, Reel):
            ci = COLOURS.index(action.colour)
            emptied = tackle.reel_empties(d.parties[seat].zones, action.a, action.b)
            base = "uses your Reel: two bait of one colour leave your board"
            if emptied:
                return base + "; empties " + ", ".join(catch_words(d, T, ci, emptied))
            return base
        if isinstance(action, Lure):
            return "uses your Lure: the two bait change Zones"
        if isinstance(action, EndTurn):
            return "ends your turn; the removed token is flipped for your next turn"
        if isinstance(action, Catch):
            uses = tackle_used(d, action)
            li = LOCATIONS.index(action.loc)
            fish = d.zones[li][action.at - 3]
            what = f"you catch the {fish_name(T, fish.species)}" if fish is not None else "you catch nothing"
            if d.mw_top is not None and not d.mw_claimed:
                what += f" (a {d.mw_top} lb one wins the Mystery Weight)"
            return what + (f"; uses your {' and '.join(uses)}" if uses else "")
        if isinstance(action, Zone6):
            return "you catch the top card of the deck; the fish in Zone 6 stays"
        if isinstance(action, TakeTop):
            return "an unseen card from the top of the Master Angler deck"
        if isinstance(action, TakeTackle):
            return (
                "draws the top tackle piece; you can play it from your next Step"
                if action.take
                else "no tackle this time"
            )
        if isinstance(action, Submit):
            cards = my_fish(d, T, d.cur if d.cur is not None else -1, action.species)
            if 1 <= action.rank <= len(cards):
                rest = "the other one is" if len(cards) == 2 else f"the other {len(cards) - 1} are"
                return f"counts {T.weight[cards[action.rank - 1]]} lb; {rest} thrown back"
        if isinstance(action, SilentDraws):
            return (
                "one draw: fewer chances for the silent player to catch"
                if action.n == 1
                else "two draws, as on any other turn"
            )
    except (AttributeError, IndexError, KeyError, ValueError, StopIteration):
        return ""
    return ""
