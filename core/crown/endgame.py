"""The end of a turn, the two end triggers and the final turns.

The end is triggered at the end of a turn in which a player has 12 or more fish
(First to 12 Fish) or a location could not be restocked to four fish. Every
other player (or the silent player) then has one final turn, and the contests
follow.
"""

from __future__ import annotations

from .model import CrownData
from .practice_pond import start_turn
from .tackle import unfresh
from .trophies import first_to_12


def end_of_turn(d: CrownData) -> None:
    p = d.parties[d.turn]
    trigger = first_to_12(d, p) or d.restock_failed
    d.restock_failed = False
    unfresh(p)
    if trigger and not d.end_triggered:
        d.end_triggered = True
        d.final_left = len(d.parties) - 1
    elif d.end_triggered:
        d.final_left -= 1
    if d.end_triggered and d.final_left <= 0:
        start_contests(d)
    else:
        next_turn(d)


def next_turn(d: CrownData) -> None:
    d.turn = (d.turn + 1) % len(d.parties)
    d.step = 1
    d.placed = -1
    d.removed = 0
    d.mw_claimed = False
    if d.parties[d.turn].silent:
        d.phase = "silent"
        start_turn(d)
    else:
        d.phase = "idle"


def start_contests(d: CrownData) -> None:
    d.step = 4
    d.phase = "submit"
    d.contest = 0
    d.placed = -1
