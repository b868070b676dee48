"""The deal of the day on `coldwater serve` (serve/deals.py; docs/ssh.md, "The deal of the day").

One line per game: today's deal (its announced seed), your score on it or whether you have played,
and the best score so far. Enter plays it (a one-person turn-based table on the server, kept move by
move) or, once you have finished it, opens its results board: everyone's score on the same deal,
each a key that opens that game's replay.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Static

from coldwater.core.errors import RecordError
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.turns import TurnTableScreen, ask
from coldwater.tui.serve.applink import ServerUnavailable, link
from coldwater.tui.serve.history import ordinal
from coldwater.tui.serve.turnwire import DealBoards, DealInfo, DealList, DealPlay, DealScore, TurnPosition
from coldwater.tui.widgets.choices import ChoiceList, Item


def deal_line(d: DealInfo, title: str) -> str:
    best = f"best {d.board[0].score} ({d.board[0].name})" if d.board else "nobody has finished it yet"
    if d.mine is not None:
        you = f"you: {d.mine.score}, {ordinal(d.mine.rank)} of {len(d.board)}"
    else:
        you = "you: playing" if d.table else "you: not played yet"
    return f"{title} · {d.mode} · {you} · {best}"


class DealsScreen(BaseScreen):
    BINDINGS = keymap.bindings("back")
    HELP = """\
**The deal of the day** (over SSH): every game has one deal a day, the same for everyone on this
server: the game's solo mode (or one seat against a bot, which plays the same position the same
way for everyone), started from the seed shown. Play it alone, whenever you like, once a day; it
is kept move by move. Once you have finished it, Enter opens its results board: everyone's score
on the same deal, each one's replay a key away.
"""

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Static("Deal of the day", classes="page-title")
            yield ChoiceList(id="deals", auto_keys=False)
            yield Static("Asking the server…", id="deals-message", classes="note", markup=False)
        yield Footer()

    def on_screen_resume(self) -> None:  # (also when it first shows)
        self.run_worker(self.load(), exclusive=True)

    async def load(self) -> None:
        message = self.query_one("#deals-message", Static)
        try:
            reply = await ask(DealList())
        except ServerUnavailable as e:
            message.update(str(e))
            return
        assert isinstance(reply, DealBoards)
        listing = self.query_one("#deals", ChoiceList)
        listing.set_items([Item(deal_line(d, self.cw.catalog.title(d.game)), d) for d in reply.deals])
        day = reply.deals[0].day if reply.deals else ""
        seeds = " · ".join(f"{d.game} {d.seed}" for d in reply.deals)
        message.update(f"Deals of {day} (seeds: {seeds}). Enter plays one, or shows its board once you finished it.")
        listing.focus()

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        if isinstance(event.value, DealInfo):
            deal = event.value
            if deal.mine is not None:
                self.app.push_screen(DealBoardScreen(deal, self.cw.catalog.title(deal.game)))
            else:
                self.run_worker(self.play(deal), exclusive=True)

    async def play(self, deal: DealInfo) -> None:
        try:
            reply = await ask(DealPlay(deal.game))
        except ServerUnavailable as e:
            self.query_one("#deals-message", Static).update(f"Cannot play it: {e}")
            return
        assert isinstance(reply, TurnPosition)
        self.app.push_screen(TurnTableScreen(reply.info.id, reply))


class DealBoardScreen(BaseScreen):
    """Everyone's score on one of today's deals, best first; Enter opens that game's replay."""

    BINDINGS = keymap.bindings("back")
    HELP = """\
**A deal's results board**: every score on today's deal of this game, best first (ties share a
place). Pick one with ↑ ↓ Enter to replay that game (its **v** reviews it).
"""

    def __init__(self, deal: DealInfo, title: str) -> None:
        super().__init__()
        self.deal = deal
        self.title = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Static(f"{self.title} · deal of {self.deal.day} · {self.deal.mode}", classes="page-title")
            yield ChoiceList(
                [
                    Item(f"{ordinal(s.rank)}  {s.score:>4}  {s.name}{' (you)' if s == self.deal.mine else ''}", s)
                    for s in self.deal.board
                ],
                id="deal-board",
                auto_keys=False,
            )
            yield Static(f"Seed {self.deal.seed}", id="deal-message", classes="note", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#deal-board", ChoiceList).focus()

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        if isinstance(event.value, DealScore):
            self.run_worker(self.replay(event.value), exclusive=True)

    async def replay(self, score: DealScore) -> None:
        from coldwater.tui.screens.replays import open_replay

        message = self.query_one("#deal-message", Static)
        served = link()
        try:
            if served is None:
                raise ServerUnavailable("this app is not served")
            path = await served.replay_of(score.result)
            screen = open_replay(self.cw, path, True)
        except (ServerUnavailable, RecordError, ImportError, AttributeError, KeyError, OSError) as e:
            message.update(f"Cannot replay that game: {e}")
            return
        self.app.push_screen(screen)
