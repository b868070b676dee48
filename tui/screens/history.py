"""History and ratings on `coldwater serve`: the games this key finished at the server's tables.

Shown only in a served session (the menu's *History and ratings*): the key's rating per game
(serve/ratings.py: openskill's ordinal, from agreed results), then every finished game, newest
first, with the date, the game, the place, the others and what the game did to the rating; a
game that did not count says why. Choosing a game asks the server for its record, which the
server writes into this key's own records folder, and opens the replay there (its **v** reviews
it), so the game also stays in *Replays*.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Static

from coldwater.core.errors import RecordError
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.resume import when
from coldwater.tui.serve.applink import ServerUnavailable, link
from coldwater.tui.serve.control import HistoryReply, PlayedGame
from coldwater.tui.serve.history import ordinal
from coldwater.tui.widgets.choices import ChoiceList, Item


def game_line(g: PlayedGame, title: str) -> str:
    """One finished game: '2026-12-06 10:15 · <title> · 1st of 2 · vs Bob (2nd, 41) · 12.3 → 14.1'."""
    rated = f"{g.change[0]:.1f} → {g.change[1]:.1f}" if g.change is not None else "not rated"
    if not g.agreed:
        rated = f"not rated: {g.why_not}"
    return (
        f"{when(g.ended)} · {title} · {ordinal(g.place)} of {g.seats}, {g.score} · vs {', '.join(g.others)} · {rated}"
    )


def ratings_line(reply: HistoryReply, title: dict[str, str]) -> str:
    if not reply.ratings:
        return "No rating yet: a game counts once you and another key finish it with an agreed result."
    return "Ratings: " + " · ".join(
        f"{title.get(r.game, r.game)} {r.rating:.1f} ({r.games} game{'s' if r.games != 1 else ''})"
        for r in reply.ratings
    )


class HistoryScreen(BaseScreen):
    BINDINGS = keymap.bindings("back")
    HELP = """\
**History and ratings** (over SSH): your rating in each game on this server, and every game
you finished at its tables, newest first.

A rating is openskill's: it starts at 0 and rises as the server grows sure of how well you
play. Only games with an agreed result count (the audit passed, nobody forfeited, no bot
played a person's seat), and only against other keys: bots and LAN players without a key here
are left out. Pick a game with ↑ ↓ Enter to replay it (**v** in the replay reviews it).
"""

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Static("History and ratings", classes="page-title")
            yield Static("Asking the server…", id="history-ratings", markup=False)
            yield ChoiceList(id="history-games", auto_keys=False)
            yield Static("", id="history-message", classes="note", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self.load(), exclusive=True)

    async def load(self) -> None:
        served = link()
        ratings = self.query_one("#history-ratings", Static)
        if served is None:
            ratings.update("History and ratings are kept by `coldwater serve`; this app is not served.")
            return
        try:
            reply = await served.history()
        except ServerUnavailable as e:
            ratings.update(f"The server cannot say: {e}")
            return
        titles = {g.game: self.cw.catalog.title(g.game) for g in reply.games} | {
            r.game: self.cw.catalog.title(r.game) for r in reply.ratings
        }
        ratings.update(ratings_line(reply, titles))
        games = self.query_one("#history-games", ChoiceList)
        games.set_items([Item(game_line(g, titles[g.game]), g) for g in reply.games])
        if not reply.games:
            self.query_one("#history-message", Static).update("No finished games yet at this server's tables.")
        games.focus()

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        game = event.value
        if isinstance(game, PlayedGame):
            self.run_worker(self.replay(game), exclusive=True)

    async def replay(self, game: PlayedGame) -> None:
        from coldwater.tui.screens.replays import open_replay

        message = self.query_one("#history-message", Static)
        served = link()
        if served is None or not game.replay:
            message.update("The server kept no record of that game.")
            return
        try:
            path = await served.replay_of(game.id)
            screen = open_replay(self.cw, path, True)
        except (ServerUnavailable, RecordError, ImportError, AttributeError, KeyError, OSError) as e:
            message.update(f"Cannot replay that game: {e}")
            return
        self.app.push_screen(screen)
