"""The end of the game.

It is triggered when a player has claimed all 4 Goals (Goals module), when the
Location deck or the Character deck runs out, or (base solo) when the virtual
rival places its 4th Manta. Then the turn finishes and every player, the one who
triggered it included, takes one more turn. Tribes Solo levels 1-5 end at once
when every Tribe is recruited (the win cannot be lost any more).
"""

from __future__ import annotations

from .model import AqData


def trigger(d: AqData) -> None:
    if d.phase in ("pre", "main", "post"):
        d.trigger = True


def end_of_turn(d: AqData) -> bool:
    """Count down the final turns; True when the game is over."""
    if d.won and d.solo_level and d.solo_level < 6:
        return True
    if d.final_left > 0:
        d.final_left -= 1
    elif d.trigger and d.final_left < 0:
        d.final_left = d.players
    return d.final_left == 0
