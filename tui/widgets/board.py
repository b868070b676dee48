"""The board widget protocol, and a generic board for games without their own."""

from __future__ import annotations

import pprint
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

import msgspec
from rich.console import RenderableType
from textual.widgets import Static

from coldwater.core.state import Game, State

S = TypeVar("S", bound=State[Any, Any])


class BoardView(Static, Generic[S]):
    """Draws one position as seen by `viewer`. Per-game boards subclass it,
    naming their game's State (``CrownBoard(BoardView[CrownState])``)."""

    def __init__(self, game: Game[Any, Any], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.game = game
        self.shown: RenderableType = ""
        """What was drawn last (tests read it as text)."""

    def show(self, view: S, names: Sequence[str], viewer: int | None) -> None:
        """Redraw from `view` (already redacted for `viewer`); `names` are the seat names."""
        data = msgspec.to_builtins(view.data)
        self.shown = pprint.pformat(data, width=60, compact=True)
        self.update(self.shown)
