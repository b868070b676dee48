"""Which games the LAN tests play: the toy game always, and every registered engine present."""

from __future__ import annotations

from typing import Any


def registered() -> list[str]:
    """Registered games whose engine is on this branch (the others land later)."""
    from coldwater.core import games

    out = []
    for name in games.names():
        try:
            games.get(name)
        except (ImportError, AttributeError):
            continue
        out.append(name)
    return out


def get(name: str) -> Any:
    if name == "toy":
        from ..toygame import GAME

        return GAME
    from coldwater.core import games

    return games.get(name)


def seats_for(name: str, want: int) -> int | None:
    """`want` players if the game allows it, else None."""
    g = get(name)
    return want if g.min_players <= want <= g.max_players else None
