"""Tackle: the Zone 5 draw, the face-down stack and its reshuffle, and playing
Reels and Lures (Rods and Lines are played while catching, in catching.py).

A piece drawn during a Step is `fresh` and may be played from the next Step on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from .actions import Kind, Lure, Reel, TackleDraw
from .casting import start_route
from .model import COLOURS, CrownData, Pending, Player, Tackle, Task


def usable(p: Player, kind: str) -> int:
    """Index of a held piece of `kind` that may be played now, or -1."""
    for i, t in enumerate(p.tackle):
        if t.kind == kind and not t.fresh:
            return i
    return -1


def consume(d: CrownData, p: Player, kind: str) -> None:
    """Play a piece: it goes face up to the tackle discard pile."""
    i = usable(p, kind)
    if i < 0:  # a view of another seat: kinds are blank
        i = next((j for j, t in enumerate(p.tackle) if t.kind is None and not t.fresh), 0)
    p.tackle.pop(i)
    d.tackle_discard.append(kind)
    d.tackle_discard.sort()


def can_draw(d: CrownData) -> bool:
    return bool(d.tackle_stack or d.tackle_discard)


def reform(d: CrownData) -> None:
    """The stack ran out: the discarded pieces are shuffled into a new stack."""
    d.tackle_stack = sorted(d.tackle_discard)  # type: ignore[assignment]
    d.tackle_discard = []


def task_step(d: CrownData) -> bool:
    """A queued draw: True if it resolved without chance (reform or nothing to draw)."""
    if d.tackle_stack:
        return False
    if d.tackle_discard:
        reform(d)
    else:
        d.tasks.pop(0)
    return True


def draw_weights(d: CrownData) -> list[tuple[TackleDraw, int]]:
    counts: dict[str | None, int] = {}
    for k in d.tackle_stack:
        counts[k] = counts.get(k, 0) + 1
    return [(TackleDraw(cast(Kind | None, k)), n) for k, n in counts.items()]


def draw(d: CrownData, kind: str | None) -> None:
    t = d.tasks.pop(0)
    d.tackle_stack.remove(kind)
    # Setup tackle is playable at once; a draw during a turn waits for the next Step.
    d.parties[t.seat].tackle.append(Tackle(kind, fresh=d.step in (1, 2, 3)))
    if not d.tackle_stack and d.tackle_discard:
        reform(d)


def offer(d: CrownData) -> None:
    if can_draw(d):
        d.offer_tackle = True


def answer_offer(d: CrownData, take: bool) -> None:
    d.offer_tackle = False
    if take:
        d.tasks.insert(0, Task("tackle", d.turn))


def unfresh(p: Player) -> None:
    for t in p.tackle:
        t.fresh = False


# ---- Reel and Lure --------------------------------------------------------------------


def reel_options(p: Player) -> list[Reel]:
    if usable(p, "reel") < 0:
        return []
    out = []
    z = p.zones
    for c in range(6):
        for ai in range(4):
            ka = z[ai][c]
            if not ka:
                continue
            if ka >= 2:
                out.append(Reel(COLOURS[c], ai + 3, ai + 3))
            for bi in range(ai + 1, 4):
                if z[bi][c]:
                    out.append(Reel(COLOURS[c], ai + 3, bi + 3))
    return out


def lure_options(p: Player) -> list[Lure]:
    if usable(p, "lure") < 0:
        return []
    out = []
    z = p.zones
    for ai in range(4):
        for bi in range(ai + 1, 4):
            for ca in range(6):
                if not z[ai][ca]:
                    continue
                for cb in range(6):
                    if cb != ca and z[bi][cb]:
                        out.append(Lure(ai + 3, COLOURS[ca], bi + 3, COLOURS[cb]))
    return out


def reel_empties(zones: Sequence[Sequence[int]], a: int, b: int) -> list[int]:
    """The Zones (3 to 6) a Reel taking one bait from Zone `a` and one from `b` empties (the table's
    preview asks this too)."""
    return [z for z in sorted({a, b}) if sum(zones[z - 3]) == (2 if a == b else 1)]


def play_reel(d: CrownData, colour: int, a: int, b: int) -> None:
    """Remove two same-coloured bait; an emptied Zone owes a catch, as when casting.

    Ruling: the removed bait count as cast, so they may go to Master Angler spots.
    """
    p = d.parties[d.turn]
    consume(d, p, "reel")
    emptied = reel_empties(p.zones, a, b)
    p.zones[a - 3][colour] -= 1
    p.zones[b - 3][colour] -= 1
    d.pending += [Pending(z, colour) for z in emptied]
    d.mini = True
    start_route(d, colour, 2)


def play_lure(d: CrownData, a: int, ca: int, b: int, cb: int) -> None:
    p = d.parties[d.turn]
    consume(d, p, "lure")
    za, zb = p.zones[a - 3], p.zones[b - 3]
    za[ca] -= 1
    za[cb] += 1
    zb[cb] -= 1
    zb[ca] += 1
