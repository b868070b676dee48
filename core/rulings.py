"""A ruling: what an engine does where its rulebook is silent.

Each game declares its own as ``Game.rulings`` (core/state.py; none by default), and the
in-app rules help lists them after the game's summary, so no screen names a game to find them.
"""

from __future__ import annotations

from typing import NamedTuple


class Ruling(NamedTuple):
    topic: str
    text: str
    source: str
    """"components" (the project's agreed component rulings) or "engine" (decided here)."""
