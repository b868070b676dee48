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

from . import catching, contests, port, practice_pond, tackle
from .casting import discard_rest, route_targets
from .endgame import end_of_turn
from .actions import Bait, MAFlip, MWFlip, Reveal, TagTile
from .content import Tables
from .model import BAIT_NAMES, COLOUR_INDEX, LOCATIONS, CrownData, Fish, MAProgress, Task

CHANCE = -1
DECISION_TASKS = frozenset({"white_choice", "silent_n"})


def derived(d: CrownData) -> tuple[str, int] | None:
    if d.step >= 4:
        return None
    for li in range(3):
        if d.tops[li] is None and d.decks[li]:
            return ("reveal", li)
    if len(d.ma_row) < 4 and d.ma_deck:
        return ("marow", 0)
    if d.mw_top is None and d.mw_stack:
        return ("mw", 0)
    return None


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
        if derived(d) is not None:
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


def _coloured_weights(d: CrownData) -> list[tuple[Bait, int]]:
    return [(Bait(BAIT_NAMES[c]), n) for c, n in enumerate(d.bag) if n]


def chance_weights(d: CrownData, T: Tables) -> list[tuple[object, int]]:
    node = derived(d)
    if node is not None:
        kind, li = node
        if kind == "reveal":
            counts: dict[tuple[str, int | None], int] = {}
            for f in d.decks[li]:
                key = (f.species, f.card)
                counts[key] = counts.get(key, 0) + 1
            return [(Reveal(LOCATIONS[li], sp, c), n) for (sp, c), n in counts.items()]
        if kind == "marow":
            return [(MAFlip(c), 1) for c in d.ma_deck]
        return [(MWFlip(w), 1) for w in d.mw_stack]
    t = d.tasks[0]
    k = t.kind
    if k in ("fill", "silent"):
        return port.bait_weights(d)  # type: ignore[return-value]
    if k == "ppdiscard":
        return _coloured_weights(d)  # type: ignore[return-value]
    if k == "tackle":
        return tackle.draw_weights(d)  # type: ignore[return-value]
    if k in ("ma_silent", "ma_take"):
        return [(MAFlip(c), 1) for c in d.ma_deck]
    if k == "tag":
        return [(TagTile(c), 1) for c in T.content.tag_colours]
    raise AssertionError(f"no chance pending ({k})")


def apply_chance(d: CrownData, T: Tables, a: object) -> None:
    node = derived(d)
    if node is not None:
        kind, li = node
        if kind == "reveal":
            assert isinstance(a, Reveal)
            deck = d.decks[li]
            for i, f in enumerate(deck):
                if f.species == a.species and f.card == a.card:
                    deck.pop(i)
                    break
            d.tops[li] = Fish(a.species, a.card)
        elif kind == "marow":
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
        tackle.draw(d, a.kind)  # type: ignore[attr-defined]
    elif k == "ma_silent":
        practice_pond.ma_to_silent(d, T, a.card)  # type: ignore[attr-defined]
    elif k == "ma_take":
        d.tasks.pop(0)
        d.ma_deck.remove(a.card)  # type: ignore[attr-defined]
        d.parties[t.seat].ma.append(MAProgress(a.card, []))  # type: ignore[attr-defined]
    elif k == "tag":
        d.tasks.pop(0)
        d.tag = a.colour  # type: ignore[attr-defined]


