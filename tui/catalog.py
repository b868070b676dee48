"""Which games the app offers, and where each game's table screen lives.

The app asks a :class:`Catalog` for game objects instead of calling the core
registry directly, so tests can offer a toy game without any global
registration. Engines and table screens are imported on first use, keeping the
cold start to the menu quick.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from coldwater.core import games

if TYPE_CHECKING:  # imported on first use at run time (see the module docstring)
    from coldwater.core.state import Game
    from coldwater.tui.screens.table import TableScreen

TABLE_SCREENS: dict[str, str] = {
    "crown": "coldwater.tui.games.crown.screen:CrownTableScreen",
    "fisheries": "coldwater.tui.games.fisheries.screen:FisheriesTableScreen",
    "aquatica": "coldwater.tui.games.aquatica.screen:AquaticaTableScreen",
}
"""Game name -> "module:class" of its table screen; others get the generic one."""

GENERIC_SCREEN = "coldwater.tui.screens.table:TableScreen"


def _load(path: str) -> object:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class Catalog:
    """The games on offer: names in menu order and a loader for each."""

    def __init__(
        self,
        names: tuple[str, ...] | None = None,
        loader: Callable[[str], Game[Any, Any]] | None = None,
        screens: dict[str, str] | None = None,
    ) -> None:
        self._names = names if names is not None else games.names()
        self._loader = loader or games.get
        self._screens = dict(TABLE_SCREENS if screens is None else screens)

    def names(self) -> tuple[str, ...]:
        return self._names

    def get(self, name: str) -> Game[Any, Any]:
        return self._loader(name)

    def title(self, name: str) -> str:
        """The game's title for a list, or its name where this build cannot load it (a record or a
        server's table of a game this app does not have): a list of old games never fails on one."""
        try:
            return str(self.get(name).title)
        except (ImportError, AttributeError, KeyError):
            return name

    def available(self) -> list[tuple[str, Game[Any, Any]]]:
        """(name, game) for every game on offer, in menu order.

        Every engine ships in the package, so a game that fails to import is a
        bug to see at once, not a menu entry to hide.
        """
        return [(name, self.get(name)) for name in self._names]

    def table_screen(self, name: str) -> type[TableScreen[Any, Any, Any]]:
        """The game's own table screen, or the generic one for a game without its own."""
        from coldwater.tui.screens.table import TableScreen

        screen_cls = _load(self._screens.get(name, GENERIC_SCREEN))
        if not (isinstance(screen_cls, type) and issubclass(screen_cls, TableScreen)):
            raise TypeError(f"{self._screens.get(name, GENERIC_SCREEN)} is not a table screen")
        return screen_cls
