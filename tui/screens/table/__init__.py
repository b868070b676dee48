"""The table screen: the frame every game's table shares, and the parts it is made of.

| module | holds |
|---|---|
| `screen.py` | `TableScreen`: the layout, panes, keys, the decision list and the flow of a game |
| `logwriter.py` | `TableLog`: the log, written from the game's words, shown through the screen |
| `driver.py` | `Driver`: bots, chance and remote seats played in a worker, and who is thinking |
| `guard.py` | `HookGuard`: runs the game's hooks; logs a failure (tests: raises) |

A game's own table (``tui/games/<game>/screen.py``) names its State, action and
command types and overrides the hooks listed in docs/tui.md; its words and board
live beside it in ``words.py`` and ``board.py``, free of Textual.
"""

from __future__ import annotations

from coldwater.tui.games.words import DONE_TAGS, TableWords

from .guard import HookError, HookGuard
from .logwriter import TableLog, records_dir, with_names
from .screen import Pane, TableScreen

__all__ = [
    "DONE_TAGS",
    "HookError",
    "HookGuard",
    "Pane",
    "TableLog",
    "TableScreen",
    "TableWords",
    "records_dir",
    "with_names",
]
