"""Resume: every saved, unfinished game; saves that cannot be resumed say why."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Static

from coldwater.net.table import SaveError, SaveInfo, list_saves, resume
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.widgets.choices import ChoiceList, Item


def when(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ts))


class ResumeScreen(BaseScreen):
    BINDINGS = keymap.bindings("back")
    HELP = """\
**Resume.** Games are saved after every move. Pick one with its key (or ↑ ↓ Enter) to
play on exactly where it stopped.

A save that is damaged or from an incompatible version is listed with the problem.
Choosing it moves the file aside (renamed `*.unreadable`, never deleted) so it no
longer gets in the way.

A game played with your own card data loads that file again. If it is gone or has
changed since, the game is not resumed and the save stays as it is: put the file back
and try again.
"""

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Static("Resume a saved game", classes="page-title")
            yield ChoiceList(id="saves")
            yield Static("", id="resume-message", classes="note")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#saves", ChoiceList).focus()

    def title_of(self, game: str) -> str:
        try:
            return str(self.cw.catalog.get(game).title)
        except (ImportError, AttributeError, KeyError):
            return game

    def reload(self) -> None:
        saves = list_saves()
        good = [s for s in saves if s.problem is None]
        bad = [s for s in saves if s.problem is not None]
        items = [Item(f"{self.title_of(s.game)} · {s.seats} · {s.plies} moves · {when(s.updated)}"
                      + (" · own card data" if s.content else ""), s, group="Saved games") for s in good]
        items += [Item(f"{Path(s.path).name}: {s.problem}", s, group="Cannot be resumed") for s in bad]
        self.query_one("#saves", ChoiceList).set_items(items)
        if not saves:
            message = self.query_one("#resume-message", Static)
            empty = "No saved games. Games in progress are saved here after every move."
            note = str(message.render()).strip()
            message.update(f"{note}\n\n{empty}" if note and note != empty else empty)

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        info: SaveInfo = event.value
        message = self.query_one("#resume-message", Static)
        game: Any = None
        if info.problem is None:
            try:
                game = self.cw.catalog.get(info.game)
            except (ImportError, AttributeError, KeyError):
                game = None
        try:
            # resume() itself moves an unreadable save aside and says where; a save
            # whose own card data is missing or changed stays where it is.
            table = resume(Path(info.path), game=game)
        except SaveError as e:
            message.update(str(e))
            self.reload()
            return
        self.app.switch_screen(self.cw.catalog.table_screen(info.game)(table))
