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
    from coldwater.tui.screens.table import TableScreen

TABLE_SCREENS: dict[str, str] = {
    "crown": "coldwater.tui.games.crown.screen:CrownTableScreen",
    "fisheries": "coldwater.tui.widgets.fisheries.screen:FisheriesTableScreen",
    "aquatica": "coldwater.tui.widgets.aquatica.screen:AquaticaTableScreen",
}
"""Game name -> "module:class" of its table screen; others get the generic one."""

GENERIC_SCREEN = "coldwater.tui.screens.table:TableScreen"


def _load(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class Catalog:
    """The games on offer: names in menu order and a loader for each."""

    def __init__(self, names: tuple[str, ...] | None = None, loader: Callable[[str], Any] | None = None,
                 screens: dict[str, str] | None = None) -> None:
        self._names = names if names is not None else games.names()
        self._loader = loader or games.get
        self._screens = dict(TABLE_SCREENS if screens is None else screens)

    def names(self) -> tuple[str, ...]:
        return self._names

    def get(self, name: str) -> Any:
        return self._loader(name)

    def available(self) -> list[tuple[str, Any | None, str]]:
        """(name, game or None, why not) for every game; None where not installed yet."""
        out: list[tuple[str, Any | None, str]] = []
        for name in self._names:
            try:
                out.append((name, self.get(name), ""))
            except (ImportError, AttributeError, KeyError) as e:
                out.append((name, None, f"not in this build yet ({type(e).__name__})"))
        return out

    def table_screen(self, name: str) -> type[TableScreen]:
        path = self._screens.get(name, GENERIC_SCREEN)
        screen_cls: type[TableScreen]
        try:
            screen_cls = _load(path)
        except (ImportError, AttributeError):
            screen_cls = _load(GENERIC_SCREEN)
        return screen_cls
