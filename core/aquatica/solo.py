"""Base solo (updated rules in the Cold Waters rulebook).

One Character set (the ○ deck, 15 Characters); draw 3 Kings and keep 1. A
virtual rival holds a set of Trained Mantas: each time you play Matrona or take
a Scout action, it places one on a goal track where it has none yet (you choose
which), on the first free spot. When its 4th Manta is placed you take one more
turn. Title by PP: 30 or less The Blobfish, 31-60 The Sea Serpent, 61-90 The
Leviathan (the rulebook prints "60 — 90"; 60 already belongs to 31-60), 91 or
more The Kraken. Matrona's 2-player discard does not apply.
"""

from __future__ import annotations

from .actions import AqAction, Rival
from .endgame import trigger
from .model import RIVAL, AqData

TITLES: tuple[tuple[int, str], ...] = ((30, "The Blobfish"), (60, "The Sea Serpent"), (90, "The Leviathan"))


def title(pp: int) -> str:
    for top, name in TITLES:
        if pp <= top:
            return name
    return "The Kraken"


def active(d: AqData) -> bool:
    return d.players == 1 and d.module == "goals"


def rival_moves(d: AqData) -> None:
    if active(d):
        d.rival_pending += 1


def options(d: AqData) -> list[AqAction]:
    return [Rival(i) for i, t in enumerate(d.tracks) if RIVAL not in t]


def place(d: AqData, pos: int) -> None:
    d.rival_pending -= 1
    d.tracks[pos].append(RIVAL)
    d.rival_placed += 1
    if d.rival_placed == 4:
        trigger(d)


# ---- the solo modes' goals, as the evaluator weighs them (core/evaluate.py's goal) ----
LEVIATHAN = 61
"""The title at stake in the base solo: The Leviathan, from 61 PP. The Kraken (91) is out of
the bots' reach (greedy scores 41-74 PP), so a chance of it would always read 0 and tell a
player nothing."""
TRIBE_WORTH = 15.0
"""Tribes Solo: a Tribe recruited, in PP, toward its goal (recruit them all); about what a
Location scores, so a line that recruits one Tribe more is better unless it loses ~15 PP."""
ALL_TRIBES_WORTH = 60.0
"""Tribes Solo: the win itself (every Tribe recruited), in PP, on top of the Tribes."""


def tribes_solo(d: AqData) -> bool:
    """A Tribes Solo game (the expansion's solo mode, won by recruiting every Tribe)."""
    return d.players == 1 and d.module == "tribes" and bool(d.solo_level)


def goal(d: AqData, seat: int, pp: int) -> tuple[float, bool]:
    """(worth in PP, goal reached) of a one-player position: Tribes Solo counts its Tribes and
    is reached only with all of them; the base solo is worth its PP and reached at LEVIATHAN."""
    if tribes_solo(d):
        got = sum(1 for t in d.tribes if t in d.ps[seat].tribes)
        every = bool(d.tribes) and got >= len(d.tribes)
        return pp + TRIBE_WORTH * got + (ALL_TRIBES_WORTH if every else 0.0), every
    return float(pp), pp >= LEVIATHAN
