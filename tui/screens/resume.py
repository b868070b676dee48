"""Resume: every saved, unfinished game; saves that cannot be resumed say why.

Each line says the game, who plays (you, and against whom), how many turns were
played and when, in local time. ``d`` deletes the chosen save after a yes/no.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Static

from coldwater.core.record import GameRecord
from coldwater.core.state import Game
from coldwater.net.play.table import SaveError, SaveInfo, delete, list_saves, read_save, resume
from coldwater.tui import keymap
from coldwater.tui.games import words_of
from coldwater.tui.games.words import TableWords
from coldwater.tui.screens.base import BaseScreen, ConfirmScreen
from coldwater.tui.widgets.choices import ChoiceList, Item


def when(ts: float) -> str:
    """A moment in the person's own time zone."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def who(info: SaveInfo) -> str:
    """ "Ann vs Greedy bot 2", or the hotseat names when everyone is at this keyboard."""
    if info.people and info.others:
        return f"{', '.join(info.people)} vs {', '.join(info.others)}"
    if info.people:
        return " vs ".join(info.people) if len(info.people) > 1 else info.people[0]
    return info.seats


def variant(rec: GameRecord) -> str:
    """Which way of playing a game is, where a game has several a person tells apart (its own words
    say: :meth:`~coldwater.tui.games.words.TableWords.variant`). Resume and Replays both name a
    game's line by it."""
    return words_of(rec.game).variant(rec.options, rec.players)


def save_variant(game: str, path: str) -> str:
    """:func:`variant` of a save ("" when it cannot be read: such a save is listed apart, with its problem)."""
    if words_of(game).variant is TableWords.variant:
        return ""  # (a game with one way of playing: no need to read the file)
    try:
        return variant(read_save(Path(path)).record)
    except SaveError:
        return ""


def save_label(title: str, info: SaveInfo) -> str:
    turns = f"{info.turns} turn{'s' if info.turns != 1 else ''}"
    return f"{title} · {who(info)} · {turns} · {when(info.updated)}" + (" · own card data" if info.content else "")


class ResumeScreen(BaseScreen):
    BINDINGS = keymap.bindings("back", "resume")
    HELP = """\
**Resume.** Games are saved after every move. Pick one with its key (or ↑ ↓ Enter) to
play on exactly where it stopped. Each line shows who plays against whom, how many
turns were played and when it was last played (your local time).

**d** (or Del) deletes the highlighted save, after you confirm with **y**.

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
            yield ChoiceList(id="saves", auto_keys=False)
            yield Static("", id="resume-message", classes="note", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#saves", ChoiceList).focus()

    def title_of(self, game: str, path: str = "") -> str:
        title = self.cw.catalog.title(game)
        if title == game:
            return game  # a game this build does not have: its save is not read
        kind = save_variant(game, path) if path else ""
        return f"{title} ({kind})" if kind else title

    def reload(self) -> None:
        saves = list_saves()
        good = [s for s in saves if s.problem is None]
        bad = [s for s in saves if s.problem is not None]
        # Hotkeys skip the delete keys, so a long list never turns d into "open save 14".
        taken = set(self.cw.settings.keys.get("resume.delete", "d,delete").split(","))
        free = iter(k for k in keymap.CHOICE_KEYS if k not in taken)
        items = [
            Item(save_label(self.title_of(s.game, s.path), s), s, group="Saved games", key=next(free, "")) for s in good
        ]
        items += [
            Item(f"{Path(s.path).name}: {s.problem}", s, group="Cannot be resumed", key=next(free, "")) for s in bad
        ]
        self.query_one("#saves", ChoiceList).set_items(items)
        if not saves:
            message = self.query_one("#resume-message", Static)
            empty = "No saved games. Games in progress are saved here after every move."
            note = str(message.render()).strip()
            message.update(f"{note}\n\n{empty}" if note and note != empty else empty)

    def highlighted(self) -> SaveInfo | None:
        lst = self.query_one("#saves", ChoiceList)
        if lst.highlighted is None:
            return None
        value: Any = lst.highlighted_value
        return value if isinstance(value, SaveInfo) else None

    def action_delete(self) -> None:
        info = self.highlighted()
        if info is None:
            return
        label = save_label(self.title_of(info.game, info.path), info) if info.problem is None else Path(info.path).name

        def answered(yes: bool | None) -> None:
            message = self.query_one("#resume-message", Static)
            if not yes:
                message.update("Kept.")
                return
            try:
                delete(Path(info.path))
            except (OSError, ValueError) as e:
                message.update(f"Cannot delete it: {e}")
                return
            message.update(f"Deleted: {label}")
            self.reload()

        self.app.push_screen(ConfirmScreen(f"Delete this saved game for good?\n\n{label}"), answered)

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        info: SaveInfo = event.value
        message = self.query_one("#resume-message", Static)
        game: Game[Any, Any] | None = None
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
        from coldwater.tui.widgets.coach import screen_for

        # A Learn to play game comes back with its coach (its record's meta says so).
        self.app.switch_screen(screen_for(self.cw.catalog.table_screen(info.game), table.record.meta)(table))
