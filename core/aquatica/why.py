"""Specific reasons why an action is refused, for people."""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from coldwater.core.notation import Action

from . import depths, payment
from .actions import (
    AqAction,
    Buy,
    ClaimGoal,
    Conquer,
    Copy,
    Cut,
    Deal,
    End,
    Exploit,
    Flip,
    OppDiscard,
    OppFlip,
    PickKing,
    Place,
    Play,
    Raise,
    Recruit,
    RecruitTribe,
    Replay,
    Rise,
    Rival,
    Score,
    Scout,
    Skip,
    Spend,
    TakeBack,
    UseTribe,
)
from .model import BOARD_SLOTS
from .raise_ import find

if TYPE_CHECKING:
    from .state import AqState


def _waiting(s: AqState) -> str:
    d = s.data
    cur = s.current
    if cur == -1:
        return "a card must be drawn first (chance)"
    if d.phase == "kings":
        return f"Seat {cur + 1} is picking a King" if cur is not None else "Kings are being picked"
    if d.opp_seats:
        what = "flip one of their ready Mantas" if d.opp_kind == "flip" else "discard a Character"
        return f"Seat {d.opp_seats[0] + 1} must first {what}"
    if d.rival_pending:
        return "choose the goal track for the virtual rival's Manta first"
    if d.pay is not None:
        owed = d.pay.cost - payment.pool(d, d.pay.res, payment.ltype_index(d.pay))
        res = "coins" if d.pay.res == "c" else "power"
        return f"finish paying first: {owed} more {res} (flip a Manta, exploit a resource Depth, use a Tribe)"
    if d.placing >= 0:
        return "place a Manta on the Tribe you paid for first"
    if d.cutting:
        return "discard bottom-row Locations down to 4 first (cut)"
    if d.stack and d.stack[-1].effs:
        return f"resolve '{d.stack[-1].effs[0].text()}' first (or skip it)"
    match d.phase:
        case "pre":
            return (
                "before your Main Action you may claim Goals, flip Mantas, exploit effect Depths, then play a Character"
            )
        case "post" | "main" | "setup" | "kings" | "over":
            # Mostly "post": a Main Action's pending effect, chance, the draft and the end
            # are answered above; the rest of "main" reads like the time after it.
            return "after your Main Action you may claim Goals, flip Mantas, exploit effect Depths, or end your turn"
        case _:
            assert_never(d.phase)


def why_illegal(s: AqState, a: AqAction) -> str:
    d, k = s.data, s.deck
    if not isinstance(a, Action):  # a direct call; apply() refuses such objects itself
        return f"{a!r} is not an Aquatica action"
    if s.current is None:
        return "the game is over"
    seat = d.turn
    p = d.ps[seat]
    if s.current == -1 and not isinstance(a, Deal):
        return _waiting(s)
    if isinstance(a, Deal):
        return "nothing is being drawn now" if s.current != -1 else f"card {a.card} is not in the deck being drawn from"
    if isinstance(a, PickKing):
        return (
            f"King {a.number} is not among the Kings passed to you"
            if d.phase == "kings"
            else "the Kings are already chosen"
        )
    if d.phase == "kings" or d.opp_seats or d.rival_pending:
        if isinstance(a, (OppFlip, OppDiscard)) and d.opp_seats:
            return (
                "that Manta is not ready"
                if isinstance(a, OppFlip)
                else "you have no such Character to discard (Matrona stays)"
            )
        if isinstance(a, Rival) and d.rival_pending:
            return "the virtual rival already has a Manta on that track"
        return _waiting(s)
    if d.pay is not None:
        if isinstance(a, Flip):
            if not 0 <= a.manta < len(p.mantas) or not p.mantas[a.manta].ready or p.mantas[a.manta].placed:
                return "that Manta is not ready"
            return "that Manta gives nothing toward this price (a wholly wasted source may not be used)"
        if isinstance(a, Exploit):
            loc = find(d, seat, a.loc)
            if loc is None:
                return f"Location {a.loc} is not on your board"
            if loc.used:
                return "only one resource Depth per Location per Main Action"
            e = depths.top(k, loc)
            if e is None or e.op == "empty":
                return "that Location has no Depth to exploit (fully risen or an empty Depth)"
            return "that Depth gives nothing toward this price (a wholly wasted source may not be used)"
        if isinstance(a, Spend):
            if d.pay.what != "tribe":
                return "Scoring-Pile Locations only pay for Tribes"
            if not payment.can_spend(d):
                return "at this Tribes Solo level Scoring-Pile Locations may not be discarded"
            return f"Location {a.loc} is not in your Scoring Pile"
        if isinstance(a, UseTribe):
            return "that Tribe cannot pay this (not yours, used this turn, or the wrong resource)"
        return _waiting(s)
    if isinstance(a, Place):
        if d.placing < 0:
            return "no Tribe is waiting for a Manta"
        if a.manta < 0:
            return "only Tribes Solo levels 1 and 2 let you flip the Tribe card"
        return "that Manta cannot go on a Tribe (already placed, or a Wild Manta below Tribes Solo level 3)"
    if d.placing >= 0 or d.cutting:
        return _waiting(s)
    if d.stack and d.stack[-1].effs:
        e = d.stack[-1].effs[0]
        if isinstance(a, (Buy, Conquer)) and len(p.board) >= BOARD_SLOTS:
            return "your board has no free slot (5 Locations)"
        if isinstance(a, (Buy, Conquer)) and a.loc not in d.loc_top + d.loc_bottom:
            return f"Location {a.loc} is not in a Location row"
        if isinstance(a, (Buy, Conquer, Recruit, RecruitTribe)):
            wants: dict[str, tuple[type, ...]] = {
                "buy": (Buy,),
                "conquer": (Conquer,),
                "recruit": (Recruit, RecruitTribe),
                "free_recruit": (Recruit,),
            }
            want = wants.get(e.op)
            if want is None or not isinstance(a, want):
                return f"the effect now is '{e.text()}'"
            return "you cannot pay that much, even with every source you have"
        if isinstance(a, Raise):
            if e.op != "raise":
                return f"the effect now is '{e.text()}'"
            if a.loc == d.stack[-1].src:
                return "a Location's own Raise never raises itself"
            return "that raise is not possible (not your Location, already fully risen, or too far)"
        if isinstance(a, Score):
            if e.op != "score":
                return f"the effect now is '{e.text()}'"
            if a.loc == d.stack[-1].src:
                return "a Location's own Score never scores itself"
            return "only a fully risen Location on your board can be scored"
        return f"resolve '{e.text()}' first (or skip it)"
    # The turn itself: each action's own reason, or what the turn waits for.
    match a:
        case Play():
            if d.phase == "post":
                return "you already took your Main Action this turn"
            return f"card {a.card} is not in your hand"
        case End():
            if d.phase == "pre":
                return "take your Main Action first (play a Character)"
            return f"'{a}' is not possible now: {_waiting(s)}"
        case Exploit():
            loc = find(d, seat, a.loc)
            if loc is None:
                return f"Location {a.loc} is not on your board"
            e = depths.top(k, loc)
            if e is None:
                return "that Location is fully risen"
            if e.op == "empty":
                return "that Depth is empty: it blocks the Location until a Raise passes it"
            return "a resource Depth can only be exploited to pay during the Main Action"
        case Flip():
            return "that Manta is not ready, or its resource can only be used to pay during the Main Action"
        case ClaimGoal():
            if d.module != "goals":
                return "there are no Goals in the Tribes module"
            if a.goal in p.goals:
                return "you already claimed that Goal"
            if not 0 <= a.manta < len(p.mantas) or p.mantas[a.manta].wild >= 0 or p.mantas[a.manta].placed:
                return "only one of your own Trained Mantas, not yet placed, can claim a Goal"
            return "you do not meet that Goal's condition"
        case UseTribe():
            return "that Tribe's ongoing bonus is not yours, already used this turn, or a resource (pay with it)"
        case (
            Skip()
            | Spend()
            | Rival()
            | Recruit()
            | RecruitTribe()
            | Buy()
            | Conquer()
            | Raise()
            | Score()
            | Scout()
            | Cut()
            | TakeBack()
            | Rise()
            | Copy()
            | Replay()
            | OppFlip()
            | OppDiscard()
            # answered above, whatever the state:
            | Deal()
            | PickKing()
            | Place()
        ):
            # Effects, payments and the other players' answers: none is pending.
            return f"'{a}' is not possible now: {_waiting(s)}"
        case _:
            assert_never(a)
