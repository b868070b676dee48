"""Which games the app offers, and where each game's table screen lives (its folder's
``screen.py``, found by the game's name: nothing here names a game).

The app asks a :class:`Catalog` for game objects instead of calling the core
registry directly, so tests can offer a toy game without any global
registration. Engines and table screens are imported on first use, keeping the
cold start to the menu quick.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from coldwater.core import games
from coldwater.tui.games import own_module

if TYPE_CHECKING:  # imported on first use at run time (see the module docstring)
    from coldwater.core.state import Game
    from coldwater.tui.screens.table import TableScreen

GENERIC_SCREEN = "coldwater.tui.screens.table:TableScreen"
"""The table screen of a game without its own (``tui/games/<name>/screen.py``, whose ``SCREEN`` it is)."""


def own_screen(name: str) -> str:
    """ "module:class" of the game's table screen: its own where its folder has one, else the generic one."""
    return f"coldwater.tui.games.{name}.screen:SCREEN" if own_module(name, "screen") is not None else GENERIC_SCREEN


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
        self._screens = screens

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

        path = own_screen(name) if self._screens is None else self._screens.get(name, GENERIC_SCREEN)
        screen_cls = _load(path)
        if not (isinstance(screen_cls, type) and issubclass(screen_cls, TableScreen)):
            raise TypeError(f"{path} is not a table screen")
        return screen_cls

    def lettered(self, names: Sequence[str], taken: str = "") -> list[tuple[str, str, str]]:
        """(key, title, name) for a list of games: each keyed by the first letter of its title that no
        game before it (nor `taken`) has, "" where none is left."""
        out = []
        used = set(taken)
        for name in names:
            title = self.title(name)
            key = next((c for c in title.lower() if c.isalpha() and c not in used), "")
            used.add(key)
            out.append((key, title, name))
        return out
