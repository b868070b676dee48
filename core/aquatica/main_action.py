"""A turn: extras before, one Main Action, extras after; and the flow between
decisions (``settle``) that resolves everything needing no choice.

- Before the Main Action (phase ``pre``) and after it (``post``) a player may
  claim Goals, flip ready Mantas for their effect, exploit effect Depths and use
  ongoing type I Tribe effects, any number of times.
- The Main Action: play one Character from hand. A Delayed Effect on top of
  the discard pile resolves first, then the card's effects in printed order.
  The card then goes on the discard pile (Matrona stays in hand).
- ``end`` finishes the turn (after the Main Action).
"""

from __future__ import annotations

from typing import assert_never

from coldwater.core.state import CHANCE

from . import (
    delayed,
    effects,
    endgame,
    goals,
    kings,
    locations,
    payment,
    recruit,
    scout,
    setup,
    solo,
    tribes,
    tribes_solo,
)
from .actions import (
    AqAction,
    ClaimGoal,
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
    Rival,
    Skip,
    Spend,
    UseTribe,
)
from .content import Deck
from .depths import effect_depth, exploit
from .mantas import effect as manta_effect
from .mantas import usable
from .model import AqData, Frame
from .raise_ import find
from .tribe_cards import active, spec


def current(d: AqData) -> int | None:
    if d.phase == "over":
        return None
    if d.draws:
        return CHANCE
    if d.phase == "kings":
        return d.draft_order[0]
    if d.opp_seats:
        return d.opp_seats[0]
    return d.turn


def legal(d: AqData, k: Deck) -> list[AqAction]:
    cur = current(d)
    if cur is None:
        return []
    if cur == CHANCE:
        # In a view the deck is sealed: one unknown outcome stands for them all.
        return [Deal(c) for c in dict.fromkeys(setup.outcomes(d, k))]
    if d.phase == "kings":
        return kings.options(d)
    if d.opp_seats:
        return effects.opp_options(d, k, cur)
    if d.rival_pending:
        return solo.options(d)
    if d.pay is not None:
        return payment.options(d, k)
    if d.placing >= 0:
        return tribes.place_options(d, d.turn)
    if d.cutting:
        return scout.cut_options(d)
    if d.stack:
        return effects.options(d, k, d.stack[-1]) + [Skip()]
    out = extras(d, k)
    match d.phase:
        case "pre":
            p = d.ps[d.turn]
            out += [Play(c) for c in sorted(set(p.hand)) if c >= 0 and k.char_effs[c]]
        case "post" | "main" | "setup" | "kings" | "over":
            # After the Main Action (its effects resolved above); the draft, chance and
            # the end are answered above, so in practice only "post" arrives here.
            out.append(End())
        case _:
            assert_never(d.phase)
    return out


def extras(d: AqData, k: Deck) -> list[AqAction]:
    """What a player may do any number of times before or after the Main Action."""
    seat = d.turn
    p = d.ps[seat]
    out: list[AqAction] = goals.options(d, k, seat)
    for i, m in enumerate(p.mantas):
        if usable(m):
            e = manta_effect(k, m)
            if e.op not in ("coins", "power", "tpower") and effects.has_options(d, k, e, -1):
                out.append(Flip(i))
    for loc in p.board:
        if effect_depth(k, loc) is not None:
            out.append(Exploit(loc.id))
    out += _tribe_effects(d, k, seat)
    return out


def _tribe_effects(d: AqData, k: Deck, seat: int) -> list[AqAction]:
    """Type I Tribes whose ongoing effect could do something now (before/after the Main Action)."""
    out: list[AqAction] = []
    for t in d.ps[seat].tribes:
        if active(d, k, seat, t):
            e = spec(k, t).ongoing
            assert e is not None
            if e.op not in ("coins", "power", "tpower") and effects.has_options(d, k, e, -1):
                out.append(UseTribe(t))
    return out


def apply(d: AqData, k: Deck, a: AqAction) -> None:
    seat = d.turn
    p = d.ps[seat]
    if isinstance(a, Deal):
        setup.deal(d, k, a.card)
    elif isinstance(a, PickKing):
        kings.pick(d, k, a.number)
    elif isinstance(a, (OppFlip, OppDiscard)):
        effects.apply_opp(d, a)
    elif isinstance(a, Rival):
        solo.place(d, a.goal)
    elif d.pay is not None:
        payment.add_source(d, k, a)
    elif isinstance(a, Place):
        tribes.place(d, k, a.manta)
        if d.solo_level and tribes_solo.all_recruited(d):
            d.won = True
    elif isinstance(a, Cut):
        scout.cut(d, a.loc)
    elif d.stack:
        effects.choose(d, k, a)
    elif isinstance(a, Play):
        play(d, k, a.card)
    elif isinstance(a, End):
        end_turn(d)
    elif isinstance(a, ClaimGoal):
        goals.claim(d, seat, a.goal, a.manta)
    elif isinstance(a, Flip):
        m = p.mantas[a.manta]
        m.ready = False
        d.stack.append(Frame([manta_effect(k, m)], label="Manta"))
    elif isinstance(a, Exploit):
        loc = find(d, seat, a.loc)
        assert loc is not None
        e = exploit(d, k, seat, loc)
        d.stack.append(Frame([e], src=loc.id, label=f"Depth of {k.loc_name[loc.id]}"))
    elif isinstance(a, UseTribe):
        tribes.use_effect(d, k, seat, a.tribe)
    elif isinstance(a, Spend):  # pragma: no cover - only legal while paying
        raise AssertionError("spend outside a payment")
    settle(d, k)


def play(d: AqData, k: Deck, c: int) -> None:
    p = d.ps[d.turn]
    p.hand.remove(c)
    d.playing = c
    d.phase = "main"
    effs = list(delayed.pending(d, k, d.turn)) + list(k.char_effs[c])
    d.stack.append(Frame(effs, main=True, label=k.char_name[c]))


def end_main(d: AqData, k: Deck) -> None:
    p = d.ps[d.turn]
    c = d.playing
    if effects.is_matrona(k, c):
        p.hand.append(c)
    else:
        p.discard.append(c)
    d.playing = -1
    d.coins = d.power = 0
    d.tpower = [0, 0, 0, 0, 0]
    for loc in p.board:
        loc.used = False
    d.phase = "post"


def end_turn(d: AqData) -> None:
    p = d.ps[d.turn]
    p.tribe_used = []
    p.recruited_cost = -1
    if endgame.end_of_turn(d):
        d.phase = "over"
        return
    d.turn = (d.turn + 1) % d.players
    d.phase = "pre"


def settle(d: AqData, k: Deck) -> None:
    """Resolve everything that needs no decision, up to the next decision or draw."""
    while True:
        if d.phase == "over":
            return
        while d.draws and not setup.outcomes(d, k):
            d.draws.pop(0)  # an empty deck deals nothing
        if d.draws:
            return
        if d.phase == "setup":
            d.phase = "kings" if d.draft_order else "pre"
            continue
        if d.phase == "kings":
            if d.draft_order:
                return
            d.phase = "pre"
            continue
        if d.opp_seats:
            while d.opp_seats and not effects.may_answer(d, k, d.opp_seats[0]):
                d.opp_seats.pop(0)
            if d.opp_seats:
                return
            d.opp_kind = ""
        if d.rival_pending:
            if solo.options(d):
                return
            d.rival_pending = 0
        if d.pay is not None:
            if payment.settled(d):
                pay = payment.deduct(d)
                if pay.what == "char":
                    recruit.take(d, k, pay.target, pay.cost)
                elif pay.what == "loc":
                    locations.take(d, k, pay.target)
                else:
                    tribes.paid(d, k, pay.target)
                continue
            return
        if d.placing >= 0 or d.cutting:
            return
        if d.stack:
            fr = d.stack[-1]
            if not fr.effs:
                d.stack.pop()
                if fr.main:
                    end_main(d, k)
                continue
            e = fr.effs[0]
            if e.op in effects.AUTO:
                fr.effs.pop(0)
                effects.apply_auto(d, k, e)
                continue
            if not effects.options(d, k, fr):
                fr.effs.pop(0)
                fr.left = -1
                continue
            return
        return
