"""The effect interpreter: what each effect of the content language does.

Effects resolve from a stack of ``Frame``s (the Main Action's card at the
bottom; a Manta, Depth, Tribe, copied Depth or replayed Character above it).
The head effect of the top frame is next. Effects that need no choice resolve
at once; the others offer their choices plus ``skip`` (each effect is resolved
as far as possible, and a player may decline one; an effect with no possible
choice passes by itself). Language:

coins N, power N, tpower N t (power only toward type t), recruit (row price),
free_recruit, buy, conquer, scout (optional), raise N [split], score,
take_back, fully_rise, ready (ready your Mantas), matrona, opp_flip (every
other player flips a ready Manta), opp_discard (every other player discards a
Character), copy (a visible effect Depth of another of your Locations),
replay (a Character of your discard pile, as part of the Main Action),
wild_manta (take a Wild Manta), empty (a blocking Depth).
"""

from __future__ import annotations

from . import locations, mantas, recruit, score, scout, solo, tribes
from .actions import (
    AqAction,
    Buy,
    Conquer,
    Copy,
    OppDiscard,
    OppFlip,
    Raise,
    Recruit,
    RecruitTribe,
    Replay,
    Rise,
    Score,
    Scout,
    Skip,
    TakeBack,
)
from .content import Deck
from .depths import copyable
from .model import LOC_TYPES, AqData, Draw, Eff, Frame
from .raise_ import find, raise_by, raise_targets, remaining

AUTO: frozenset[str] = frozenset(
    {
        "coins",
        "power",
        "tpower",
        "ready",
        "matrona",
        "wild_manta",
        "opp_flip",
        "opp_discard",
        "empty",
    }
)


def options(d: AqData, k: Deck, fr: Frame) -> list[AqAction]:
    """Choices for the head effect of `fr` (without ``skip``)."""
    e = fr.effs[0]
    op = e.op
    seat = d.turn
    p = d.ps[seat]
    if op == "recruit":
        return recruit.options(d, k, False)
    if op == "free_recruit":
        return recruit.options(d, k, True)
    if op == "buy":
        return locations.options(d, k, False)
    if op == "conquer":
        return locations.options(d, k, True)
    if op == "scout":
        return scout.options(d)
    if op == "raise":
        left = e.n if fr.left < 0 else fr.left
        out: list[AqAction] = []
        for loc in raise_targets(d, k, seat, fr.src):
            rem = remaining(k, loc)
            if e.split:
                out += [Raise(loc.id, b) for b in range(1, min(left, rem) + 1)]
            else:
                out.append(Raise(loc.id, min(left, rem)))
        return out
    if op == "score":
        return score.options(d, fr.src)
    if op == "take_back":
        return [TakeBack(c) for c in sorted(set(p.discard)) if c >= 0]
    if op == "fully_rise":
        return [Rise(loc.id) for loc in raise_targets(d, k, seat, fr.src)]
    if op == "copy":
        out = []
        for loc in p.board:
            if loc.id == fr.src:
                continue
            depths = k.loc_depths[loc.id]
            out += [Copy(loc.id, i) for i in copyable(k, loc) if has_options(d, k, depths[i], fr.src)]
        return out
    if op == "replay":
        return [
            Replay(c)
            for c in sorted(set(p.discard))
            if c >= 0 and not any(x.op in ("replay", "matrona") for x in k.char_effs[c])
        ]
    return []


def has_options(d: AqData, k: Deck, e: Eff, src: int) -> bool:
    if e.op in AUTO:
        return e.op != "empty"
    return bool(options(d, k, Frame([e], src=src)))


def apply_auto(d: AqData, k: Deck, e: Eff) -> None:
    seat = d.turn
    p = d.ps[seat]
    op = e.op
    if op == "coins":
        d.coins += e.n
    elif op == "power":
        d.power += e.n
    elif op == "tpower":
        d.tpower[LOC_TYPES.index(e.t)] += e.n
    elif op == "ready":
        mantas.ready_all(d, seat)
    elif op == "matrona":
        p.hand += p.discard
        p.discard = []
        mantas.ready_all(d, seat)
        if d.players == 2 and d.char_row:
            # Cold Waters 2-player rule: the free (leftmost) Character is discarded.
            d.char_discard.append(d.char_row.pop(0))
            d.draws.append(Draw("cd", "crow"))
        solo.rival_moves(d)
    elif op == "wild_manta":
        d.draws.append(Draw("wild", "wild", seat))
    elif op in ("opp_flip", "opp_discard"):
        d.opp_kind = "flip" if op == "opp_flip" else "discard"
        d.opp_seats = [(seat + i) % d.players for i in range(1, d.players)]


def opp_options(d: AqData, k: Deck, seat: int) -> list[AqAction]:
    p = d.ps[seat]
    if d.opp_kind == "flip":
        return [OppFlip(i) for i, m in enumerate(p.mantas) if mantas.usable(m)]
    return [OppDiscard(c) for c in sorted(set(p.hand)) if c >= 0 and not is_matrona(k, c)]


def may_answer(d: AqData, k: Deck, seat: int) -> bool:
    """Whether `seat` has an answer to the opponents' effect. In a view, a card it
    holds face down may be one (its holder shows them when none is: sealing.py)."""
    if opp_options(d, k, seat):
        return True
    return d.opp_kind != "flip" and any(c < 0 for c in d.ps[seat].hand)


def is_matrona(k: Deck, c: int) -> bool:
    return any(e.op == "matrona" for e in k.char_effs[c])


def apply_opp(d: AqData, a: OppFlip | OppDiscard) -> None:
    seat = d.opp_seats.pop(0)
    p = d.ps[seat]
    if isinstance(a, OppFlip):
        p.mantas[a.manta].ready = False
    else:
        p.hand.remove(a.card if a.card in p.hand else -1)
        p.discard.append(a.card)  # it may switch a Delayed Effect on (or off)
    if not d.opp_seats:
        d.opp_kind = ""


def choose(d: AqData, k: Deck, a: AqAction) -> None:
    """Apply the current player's choice for the head effect of the top frame."""
    fr = d.stack[-1]
    e = fr.effs[0]
    seat = d.turn
    p = d.ps[seat]
    if isinstance(a, Raise):
        left = (e.n if fr.left < 0 else fr.left) - a.by
        loc = find(d, seat, a.loc)
        assert loc is not None
        raise_by(d, k, seat, loc, a.by)
        if e.split and left > 0:
            fr.left = left
            return
        fr.left = -1
        fr.effs.pop(0)
        return
    fr.effs.pop(0)
    fr.left = -1
    if isinstance(a, Skip):
        return
    if isinstance(a, Recruit):
        recruit.choose(d, k, a.slot, e.op == "free_recruit")
    elif isinstance(a, RecruitTribe):
        tribes.choose(d, k, a.tribe)
    elif isinstance(a, Buy):
        locations.choose(d, k, a.loc, False)
    elif isinstance(a, Conquer):
        locations.choose(d, k, a.loc, True)
    elif isinstance(a, Scout):
        scout.begin(d)
    elif isinstance(a, Score):
        score.score(d, a.loc)
    elif isinstance(a, TakeBack):
        p.discard.remove(a.card)
        p.hand.append(a.card)
    elif isinstance(a, Rise):
        loc = find(d, seat, a.loc)
        assert loc is not None
        raise_by(d, k, seat, loc, remaining(k, loc))
    elif isinstance(a, Copy):
        loc = find(d, seat, a.loc)
        assert loc is not None
        de = k.loc_depths[loc.id][a.depth]
        d.stack.append(Frame([de], src=fr.src, label=f"copy of {k.loc_name[a.loc]}"))
    elif isinstance(a, Replay):
        d.stack.append(Frame(list(k.char_effs[a.card]), label=f"replay of {k.char_name[a.card]}"))
    else:
        raise AssertionError(f"unexpected choice {a}")
