"""Special case: the double turn. Discard your lobster to take another action at once.

After each completed action, a player who still has a lobster is asked
``lobster`` / ``pass``. The question is skipped while the opponent has ended the
day (every turn is then yours anyway, so the lobster would buy nothing). The
extra action is any action but ending the day (ending is not an action) and
cannot be a second Preserve that day; ``pass`` gives it up.
"""

from __future__ import annotations

from .days import pass_turn
from .model import Data


def after_action(d: Data) -> None:
    """An action is complete: offer the lobster, or pass the turn."""
    p = d.turn
    if d.double:
        d.double = False
        pass_turn(d)
    elif d.lobster[p] > 0 and not d.ended[1 - p]:
        d.phase = "lobster"
    else:
        pass_turn(d)


def apply_lobster(d: Data) -> None:
    d.lobster[d.turn] -= 1
    d.phase = "turn"
    d.double = True


def apply_pass(d: Data) -> None:
    d.double = False
    pass_turn(d)
