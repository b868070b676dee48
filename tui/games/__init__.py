"""Each game's table screen, with its wording and cursor logic apart from Textual.

A game's folder ``tui/games/<name>/`` (``<name>`` as the core registry names it) holds
everything the app knows of that game alone: its words (``words.py``, with ``WORDS``, its
:class:`~coldwater.tui.games.words.TableWords` subclass), its lessons (``lessons.py``) and its
table screen (``screen.py``, with ``SCREEN``). Every other module of the app finds them by the
game's registry name through the functions here and names no game itself
(tests/test_layering.py), so a fourth game adds a folder here and touches nothing else.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .words import TableWords


def own_module(game: str, part: str) -> ModuleType | None:
    """The game's own module `part` (``words``, ``lessons``, ``screen``), or None when the game has
    no folder or no such module here (a toy game, a game this build has no screen for)."""
    if not game.isidentifier():
        return None
    name = f"{__name__}.{game}.{part}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name in (name, f"{__name__}.{game}"):
            return None
        raise  # a module that is there but fails to import is a bug to see at once


def words_of(game: str) -> type[TableWords[Any, Any, Any]]:
    """The game's own words class, or the generic one that words any game through the core contract."""
    from .words import TableWords

    module = own_module(game, "words")
    words: type[TableWords[Any, Any, Any]] = getattr(module, "WORDS", TableWords)
    return words
