"""The flow of play: which decision or chance draw comes next, and the Steps.

After every action ``advance`` runs the automatic rules (restocking, reshuffles,
the end of a Step or turn) until a decision or a chance draw is pending, and
caches who acts in ``data.cur``.

Chance nodes, in priority order:
1. derived: a deck whose top card is gone shows its next card; the Master
   Angler row refills to four; a new Mystery Weight tile is flipped;
2. the first queued task (bait draws, tackle draws, the Tag tile, ...).
"""

from __future__ import annotations

from typing import cast

from coldwater.core.state import CHANCE

from . import catching, contests, port, practice_pond, tackle
from .actions import Bait, CrownAction, Loc, MAFlip, MWFlip, Reveal, Species, TackleDraw, TagTile
from .casting import discard_rest, route_targets
from .content import Tables
from .endgame import end_of_turn
from .model import BAIT_NAMES, COLOUR_INDEX, LOCATIONS, CrownData, Fish, MAProgress, Task

DECISION_TASKS = frozenset({"white_choice", "silent_n"})


REVEAL_NODES = (0, 1, 2)
MA_ROW_NODE = 3
MW_NODE = 4


def derived_node(d: CrownData) -> int:
    """Which derived chance node is pending (see CrownData.node), or -1."""
    if d.step >= 4:
        return -1
    tops = d.tops
    if None in tops:  # tested in C first: a deck almost always shows its top card
        for li in REVEAL_NODES:
            if tops[li] is None and d.decks[li]:
                return li
    if len(d.ma_row) < 4 and d.ma_deck:
        return MA_ROW_NODE
    if d.mw_top is None and d.mw_stack:
        return MW_NODE
    return -1


def derived(d: CrownData) -> tuple[str, int] | None:
    """The pending derived chance node in words: ("reveal", location), ("marow", 0), ("mw", 0)."""
    n = derived_node(d)
    if n < 0:
        return None
    return ("reveal", n) if n < 3 else (("marow", 0) if n == MA_ROW_NODE else ("mw", 0))


def end_step(d: CrownData) -> None:
    """Restocking waits for the end of the Step; then the next Step begins."""
    d.phase = "wait"
    d.tasks[0:0] = [Task("stock"), Task("endstep")]


def _run_task(d: CrownData, T: Tables, t: Task) -> bool:
    """Do automatic work for the first task. False if it waits for chance."""
    k = t.kind
    if k == "fill":
        return port.fill_step(d, t)
    if k == "stock":
        catching.stock_step(d)
        return True
    if k == "silent":
        return practice_pond.draw_step(d)
    if k == "tackle":
        return tackle.task_step(d)
    if k in ("ma_silent", "ma_take"):
        if d.ma_deck:
            return False
        d.tasks.pop(0)
        return True
    if k == "ppdiscard":
        if any(d.bag):
            return False
        d.tasks.pop(0)
        return True
    if k == "tag":
        return False
    d.tasks.pop(0)
    if k == "endstep":
        if d.mini:
            d.mini = False
        else:
            d.step += 1
            d.mw_claimed = False
            tackle.unfresh(d.parties[d.turn])
        d.phase = "idle"
    elif k == "endturn":
        end_of_turn(d)
    elif k == "white_back":
        port.white_back(d)
    elif k == "white_in":
        d.white_in_bag = True  # L3: the clear-white bait goes in after the Zones are filled
    elif k == "begin":
        d.step = 1
        d.phase = "idle"
        d.turn = 0
    else:
        raise AssertionError(f"unknown task {k}")
    return True


def _phase_step(d: CrownData, T: Tables) -> bool:
    """Automatic work of the current phase; False (with d.cur set) at a decision."""
    ph = d.phase
    if ph == "port":
        if d.port_left <= 0:
            end_step(d)
            return True
    elif ph == "route":
        if d.route_left <= 0:
            d.phase = "catch"
            return True
        if not route_targets(d, T, d.parties[d.turn]):
            discard_rest(d)
            return True
    elif ph == "catch":
        if not d.offer_tackle and not d.pending:
            end_step(d)
            return True
    elif ph == "submit":
        s = contests.next_picker(d, T)
        if s is None:
            contests.resolve(d, T)
            return True
        d.cur = s
        return False
    elif ph == "over":
        d.cur = None
        return False
    d.cur = d.turn
    return False


def advance(d: CrownData, T: Tables) -> None:
    while True:
        if d.phase == "over":
            d.cur = None
            return
        n = derived_node(d)
        d.node = n
        if n >= 0:
            d.cur = CHANCE
            return
        if d.tasks:
            t = d.tasks[0]
            if t.kind in DECISION_TASKS:
                d.cur = 0  # the Practice Pond's only seat decides for the silent player
                return
            if _run_task(d, T, t):
                continue
            d.cur = CHANCE
            return
        if _phase_step(d, T):
            continue
        return


# ---- chance ------------------------------------------------------------------------


_BAIT = tuple(Bait(n) for n in BAIT_NAMES)
_MAFLIP = tuple(MAFlip(c) for c in range(61))


def _coloured_weights(d: CrownData) -> list[tuple[Bait, int]]:
    return [(_BAIT[c], n) for c, n in enumerate(d.bag) if n]


def chance_weights(d: CrownData, T: Tables) -> list[tuple[CrownAction, int]]:
    li = d.node
    if li >= 0:
        if li < 3:
            counts: dict[tuple[str, int | None], int] = {}
            for f in d.decks[li]:
                key = (f.species, f.card)
                counts[key] = counts.get(key, 0) + 1
            loc: Loc = LOCATIONS[li]
            return [(Reveal(loc, cast(Species, sp), c), n) for (sp, c), n in counts.items()]
        if li == MA_ROW_NODE:
            return [(_MAFLIP[c] if c < 61 else MAFlip(c), 1) for c in d.ma_deck]
        return [(MWFlip(w), 1) for w in d.mw_stack]
    t = d.tasks[0]
    k = t.kind
    if k in ("fill", "silent"):
        return list(port.bait_weights(d))
    if k == "ppdiscard":
        return list(_coloured_weights(d))
    if k == "tackle":
        return list(tackle.draw_weights(d))
    if k in ("ma_silent", "ma_take"):
        return [(MAFlip(c), 1) for c in d.ma_deck]
    if k == "tag":
        return [(TagTile(c), 1) for c in T.content.tag_colours]
    raise AssertionError(f"no chance pending ({k})")


def apply_chance(d: CrownData, T: Tables, a: CrownAction) -> None:
    li = d.node
    if li >= 0:
        if li < 3:
            assert isinstance(a, Reveal)
            deck = d.decks[li]
            for i, f in enumerate(deck):
                if f.species == a.species and f.card == a.card:
                    deck.pop(i)
                    break
            d.tops[li] = Fish(a.species, a.card)
        elif li == MA_ROW_NODE:
            assert isinstance(a, MAFlip)
            d.ma_deck.remove(a.card)
            d.ma_row.append(a.card)
        else:
            assert isinstance(a, MWFlip)
            d.mw_stack.remove(a.weight)
            d.mw_top = a.weight
        return
    t = d.tasks[0]
    k = t.kind
    if k == "fill":
        assert isinstance(a, Bait)
        port.fill_draw(d, t, COLOUR_INDEX[a.colour])
    elif k == "silent":
        assert isinstance(a, Bait)
        practice_pond.silent_draw(d, T, COLOUR_INDEX[a.colour])
    elif k == "ppdiscard":
        assert isinstance(a, Bait)
        practice_pond.ppdiscard_draw(d, COLOUR_INDEX[a.colour])
    elif k == "tackle":
        assert isinstance(a, TackleDraw)
        tackle.draw(d, a.kind)
    elif k == "ma_silent":
        assert isinstance(a, MAFlip)
        practice_pond.ma_to_silent(d, T, a.card)
    elif k == "ma_take":
        assert isinstance(a, MAFlip)
        d.tasks.pop(0)
        d.ma_deck.remove(a.card)
        d.parties[t.seat].ma.append(MAProgress(a.card, []))
    elif k == "tag":
        assert isinstance(a, TagTile)
        d.tasks.pop(0)
        d.tag = a.colour
