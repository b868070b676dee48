"""The game registry: ``get("crown" | "fisheries" | "aquatica")``.

Engines are imported on first use so starting the app does not load all three.
The table below is constant; there is no registration at import time.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import Game

_MODULES: dict[str, str] = {
    "crown": "coldwater.core.crown.game",
    "fisheries": "coldwater.core.fisheries.game",
    "aquatica": "coldwater.core.aquatica.game",
}


def names() -> tuple[str, ...]:
    """Every game's short name, in menu order."""
    return tuple(_MODULES)


def get(name: str) -> Game[Any, Any]:
    """The Game object for `name`; raises KeyError naming the known games."""
    try:
        module = _MODULES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(_MODULES)}") from None
    game: Game[Any, Any] = importlib.import_module(module).GAME
    return game
