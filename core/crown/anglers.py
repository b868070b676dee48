"""Angler spaces and tokens: placing (Step 1), removing (Step 2), flipping (Step 3),
and the silent player's clockwise token moves."""

from __future__ import annotations

from .model import COLOUR_SPACE, PORT, SPACE_COLOUR, CrownData


def open_spaces(d: CrownData) -> list[int]:
    return [i for i, t in enumerate(d.tokens) if t == 0]


def removable_spaces(d: CrownData) -> list[int]:
    """Occupied spaces except the one you placed on this turn."""
    return [i for i, t in enumerate(d.tokens) if t and i != d.placed]


def place(d: CrownData, space: int) -> int:
    """Step 1. Returns the side the token shows (the strength of the action)."""
    p = d.parties[d.turn]
    side = p.token
    d.tokens[space] = side
    p.token = 0
    d.placed = space
    return side


def remove(d: CrownData, space: int) -> int:
    side = d.tokens[space]
    d.tokens[space] = 0
    d.removed = side
    return side


def flip_removed(d: CrownData) -> None:
    """Step 3: the removed token is flipped to its other side for next turn."""
    d.parties[d.turn].token = 3 - d.removed


def space_colour(space: int) -> int:
    return SPACE_COLOUR[space]


def is_port(space: int) -> bool:
    return space == PORT


def silent_move(d: CrownData, colour: int) -> tuple[int, int] | None:
    """Silent Player Action 1 for a drawn bait `colour`. Returns (from, to) or None.

    Path Port-Purple-Green-Blue-Red-Yellow-Black-Port...: a token on the matching
    space moves on to the first empty space; otherwise the nearest token behind
    the matching space moves onto it.
    """
    target = COLOUR_SPACE[colour]
    t = d.tokens
    if t[target]:
        for k in range(1, 7):
            j = (target + k) % 7
            if t[j] == 0:
                t[j], t[target] = t[target], 0
                return target, j
        return None
    for k in range(1, 7):
        j = (target - k) % 7
        if t[j]:
            t[target], t[j] = t[j], 0
            return j, target
    return None
