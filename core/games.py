"""The game registry: ``get("crown" | "fisheries" | "aquatica")``.

Engines are imported on first use so starting the app does not load all three.
The table below is constant; there is no registration at import time.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Literal, overload

if TYPE_CHECKING:
    from .aquatica.actions import AqAction
    from .aquatica.game import AquaticaGame
    from .aquatica.state import AqState
    from .crown.actions import CrownAction
    from .crown.game import CrownGame
    from .crown.state import CrownState
    from .fisheries.actions import FAction
    from .fisheries.game import FisheriesGame
    from .fisheries.state import FisheriesState
    from .state import Game

    def _implements_game(
        c: CrownGame, f: FisheriesGame, a: AquaticaGame
    ) -> tuple[Game[CrownState, CrownAction], Game[FisheriesState, FAction], Game[AqState, AqAction]]:
        """Never called: mypy checks here that each game object is a Game of its own types."""
        return c, f, a


_MODULES: dict[str, str] = {
    "crown": "coldwater.core.crown.game",
    "fisheries": "coldwater.core.fisheries.game",
    "aquatica": "coldwater.core.aquatica.game",
}


def names() -> tuple[str, ...]:
    """Every game's short name, in menu order."""
    return tuple(_MODULES)


# A literal name gives that game's own type (its State and action types); a name
# only known at run time (a record, the command line) gives a Game of either.
@overload
def get(name: Literal["crown"]) -> CrownGame: ...
@overload
def get(name: Literal["fisheries"]) -> FisheriesGame: ...
@overload
def get(name: Literal["aquatica"]) -> AquaticaGame: ...
@overload
def get(name: str) -> Game[Any, Any]: ...
def get(name: str) -> Game[Any, Any]:
    """The Game object for `name`; raises KeyError naming the known games."""
    try:
        module = _MODULES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(_MODULES)}") from None
    return from_module(module)


def from_module(module: str) -> Game[Any, Any]:
    """The `GAME` a module declares: each registered game's, or a test's own game handed to the
    LAN tools by module path (``--game-module``)."""
    game: Game[Any, Any] = importlib.import_module(module).GAME
    return game
