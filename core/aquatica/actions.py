"""Every Aquatica decision as a small action with a short notation.

Ids are card ids (see ``model.py``): ``play 31`` plays Ocean Character 31,
``buy 17`` buys Location 17, ``flip 2`` flips your third Manta.
"""

from __future__ import annotations

from typing import Any

import msgspec

from coldwater.core.notation import Action, Codec

_LAYOUT: dict[type, tuple[str, tuple[tuple[str, Any], ...]]] = {}


def _layout(cls: type) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """Tag and (field, default) pairs of an action class, computed once (it is constant)."""
    lay = _LAYOUT.get(cls)
    if lay is None:
        info = msgspec.inspect.type_info(cls)
        assert isinstance(info, msgspec.inspect.StructType) and isinstance(info.tag, str)
        lay = (info.tag, tuple((f.name, f.default) for f in msgspec.structs.fields(cls)))
        _LAYOUT[cls] = lay
    return lay


class AqAct(Action, frozen=True):
    """Aquatica actions: the core notation, with the class layout cached.

    ``core.notation.encode`` inspects the class on every call; records and
    sorting ``legal()`` call it thousands of times a game. The text is the same
    (the tests compare it with ``core.notation.encode``), only faster: all our
    fields are ints, with at most trailing defaults.
    """

    def __str__(self) -> str:
        tag, fields = _layout(type(self))
        vals = [getattr(self, name) for name, _ in fields]
        n = len(vals)
        while n and fields[n - 1][1] is not msgspec.NODEFAULT and vals[n - 1] == fields[n - 1][1]:
            n -= 1
        if not n:
            return tag
        return tag + " " + " ".join(str(v) for v in vals[:n])



class Deal(AqAct, frozen=True, tag="deal"):
    """Chance: the card (or token side, or Wild Manta) that comes off a deck."""
    card: int


class PickKing(AqAct, frozen=True, tag="king"):
    number: int


class Play(AqAct, frozen=True, tag="play"):
    """Play a Character from hand: this turn's Main Action."""
    card: int


class End(AqAct, frozen=True, tag="end"):
    """End your turn (after the Main Action)."""


class Skip(AqAct, frozen=True, tag="skip"):
    """Do not resolve (the rest of) the current effect."""


class Flip(AqAct, frozen=True, tag="flip"):
    """Flip one of your ready Mantas for its effect or resource."""
    manta: int


class Exploit(AqAct, frozen=True, tag="expl"):
    """Exploit the top visible Depth of one of your Locations."""
    loc: int


class UseTribe(AqAct, frozen=True, tag="tribe"):
    """Use the ongoing bonus of a type I Tribe you recruited (once per turn)."""
    tribe: int


class Spend(AqAct, frozen=True, tag="spend"):
    """Discard a Location from your Scoring Pile to pay for a Tribe."""
    loc: int


class ClaimGoal(AqAct, frozen=True, tag="goal"):
    """Place one of your Trained Mantas on a goal track."""
    goal: int
    manta: int


class Rival(AqAct, frozen=True, tag="rival"):
    """Solo: the goal track on which the virtual rival places a Manta."""
    goal: int


class Recruit(AqAct, frozen=True, tag="rc"):
    """Recruit the Character in row slot ``slot`` (price = slot)."""
    slot: int


class RecruitTribe(AqAct, frozen=True, tag="rt"):
    tribe: int


class Place(AqAct, frozen=True, tag="place"):
    """Place Manta ``manta`` on the Tribe just paid for (-1: flip the card, solo levels 1-2)."""
    manta: int


class Buy(AqAct, frozen=True, tag="buy"):
    loc: int


class Conquer(AqAct, frozen=True, tag="conq"):
    loc: int


class Raise(AqAct, frozen=True, tag="raise"):
    loc: int
    by: int


class Score(AqAct, frozen=True, tag="score"):
    loc: int


class Scout(AqAct, frozen=True, tag="scout"):
    pass


class Cut(AqAct, frozen=True, tag="cut"):
    """Scouting: discard this bottom-row Location (more than 4 were there)."""
    loc: int


class TakeBack(AqAct, frozen=True, tag="back"):
    card: int


class Rise(AqAct, frozen=True, tag="rise"):
    """Fully raise this Location."""
    loc: int


class Copy(AqAct, frozen=True, tag="copy"):
    """Copy the effect of this Location's visible Depth."""
    loc: int


class Replay(AqAct, frozen=True, tag="replay"):
    card: int


class OppFlip(AqAct, frozen=True, tag="oflip"):
    """Another player's effect: flip one of your ready Mantas (no effect)."""
    manta: int


class OppDiscard(AqAct, frozen=True, tag="odisc"):
    """Another player's effect: discard a Character from your hand."""
    card: int


AqAction = (
    Deal | PickKing | Play | End | Skip | Flip | Exploit | UseTribe | Spend | ClaimGoal | Rival | Recruit
    | RecruitTribe | Place | Buy | Conquer | Raise | Score | Scout | Cut | TakeBack | Rise | Copy | Replay
    | OppFlip | OppDiscard
)

CODEC = Codec([
    Deal, PickKing, Play, End, Skip, Flip, Exploit, UseTribe, Spend, ClaimGoal, Rival, Recruit, RecruitTribe,
    Place, Buy, Conquer, Raise, Score, Scout, Cut, TakeBack, Rise, Copy, Replay, OppFlip, OppDiscard,
])
