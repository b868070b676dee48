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
