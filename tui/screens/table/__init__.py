"""The table screen: the frame every game's table shares, and the parts it is made of.

| module | holds |
|---|---|
| `screen.py` | `TableScreen`: the layout, keys and handlers, the question asked and the move made |
| `logwriter.py` | `TableLog`: the log, written from the game's words, shown in the log widgets |
| `driver.py` | `Driver`: bots, chance and remote seats played in a worker, and who is thinking |
| `turns.py` | `Turns`: the driver's stage; the next person's view, the hand-over, the end |
| `status.py` | `Status`: the title line, and the table while others play |
| `answers.py` | `Answers`: questions answered without asking, "!", the safe highlight |
| `panes.py` | `Panes`: the full-screen panes (board, log, the game's own) |
| `hints.py`, `look.py`, `lastmove.py` | the hint panel, the look-up cursor, the last move's marks |
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
