"""Every Aquatica decision as a small action with a short notation.

Ids are card ids (see ``model.py``): ``play 31`` plays Ocean Character 31,
``buy 17`` buys Location 17, ``flip 2`` flips your third Manta.
"""

from __future__ import annotations

from coldwater.core.notation import Action, Codec


class Deal(Action, frozen=True, tag="deal"):
    """Chance: the card (or token side, or Wild Manta) that comes off a deck."""
    card: int


class PickKing(Action, frozen=True, tag="king"):
    number: int


class Play(Action, frozen=True, tag="play"):
    """Play a Character from hand: this turn's Main Action."""
    card: int


class End(Action, frozen=True, tag="end"):
    """End your turn (after the Main Action)."""


class Skip(Action, frozen=True, tag="skip"):
    """Do not resolve (the rest of) the current effect."""


class Flip(Action, frozen=True, tag="flip"):
    """Flip one of your ready Mantas for its effect or resource."""
    manta: int


class Exploit(Action, frozen=True, tag="expl"):
    """Exploit the top visible Depth of one of your Locations."""
    loc: int


class UseTribe(Action, frozen=True, tag="tribe"):
    """Use the ongoing bonus of a type I Tribe you recruited (once per turn)."""
    tribe: int


class Spend(Action, frozen=True, tag="spend"):
    """Discard a Location from your Scoring Pile to pay for a Tribe."""
    loc: int


class ClaimGoal(Action, frozen=True, tag="goal"):
    """Place one of your Trained Mantas on a goal track."""
    goal: int
    manta: int


class Rival(Action, frozen=True, tag="rival"):
    """Solo: the goal track on which the virtual rival places a Manta."""
    goal: int


class Recruit(Action, frozen=True, tag="rc"):
    """Recruit the Character in row slot ``slot`` (price = slot)."""
    slot: int


class RecruitTribe(Action, frozen=True, tag="rt"):
    tribe: int


class Place(Action, frozen=True, tag="place"):
    """Place Manta ``manta`` on the Tribe just paid for (-1: flip the card, solo levels 1-2)."""
    manta: int


class Buy(Action, frozen=True, tag="buy"):
    loc: int


class Conquer(Action, frozen=True, tag="conq"):
    loc: int


class Raise(Action, frozen=True, tag="raise"):
    loc: int
    by: int


class Score(Action, frozen=True, tag="score"):
    loc: int


class Scout(Action, frozen=True, tag="scout"):
    pass


class Cut(Action, frozen=True, tag="cut"):
    """Scouting: discard this bottom-row Location (more than 4 were there)."""
    loc: int


class TakeBack(Action, frozen=True, tag="back"):
    card: int


class Rise(Action, frozen=True, tag="rise"):
    """Fully raise this Location."""
    loc: int


class Copy(Action, frozen=True, tag="copy"):
    """Copy the effect of this Location's visible Depth."""
    loc: int


class Replay(Action, frozen=True, tag="replay"):
    card: int


class OppFlip(Action, frozen=True, tag="oflip"):
    """Another player's effect: flip one of your ready Mantas (no effect)."""
    manta: int


class OppDiscard(Action, frozen=True, tag="odisc"):
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
