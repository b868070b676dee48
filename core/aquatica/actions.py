"""Every Aquatica decision as a small action with a short notation.

Ids are card ids (see ``model.py``): ``play 31`` plays Ocean Character 31,
``buy 17`` buys Location 17, ``flip 2`` flips your third Manta.
"""

from __future__ import annotations

from coldwater.core.notation import Action, Codec


class AqAct(Action, frozen=True):
    """Base of Aquatica's actions (notation from ``core.notation``)."""


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
    """Copy the effect of a visible Depth (index `depth`) of this Location."""

    loc: int
    depth: int


class Replay(AqAct, frozen=True, tag="replay"):
    card: int


class OppFlip(AqAct, frozen=True, tag="oflip"):
    """Another player's effect: flip one of your ready Mantas (no effect)."""

    manta: int


class OppDiscard(AqAct, frozen=True, tag="odisc"):
    """Another player's effect: discard a Character from your hand."""

    card: int


AqAction = (
    Deal
    | PickKing
    | Play
    | End
    | Skip
    | Flip
    | Exploit
    | UseTribe
    | Spend
    | ClaimGoal
    | Rival
    | Recruit
    | RecruitTribe
    | Place
    | Buy
    | Conquer
    | Raise
    | Score
    | Scout
    | Cut
    | TakeBack
    | Rise
    | Copy
    | Replay
    | OppFlip
    | OppDiscard
)

CODEC: Codec[AqAction] = Codec(
    [
        Deal,
        PickKing,
        Play,
        End,
        Skip,
        Flip,
        Exploit,
        UseTribe,
        Spend,
        ClaimGoal,
        Rival,
        Recruit,
        RecruitTribe,
        Place,
        Buy,
        Conquer,
        Raise,
        Score,
        Scout,
        Cut,
        TakeBack,
        Rise,
        Copy,
        Replay,
        OppFlip,
        OppDiscard,
    ]
)
