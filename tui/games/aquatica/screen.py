"""The Aquatica: Cold Waters table screen: the generic table with Aquatica's
board, choices written for people, and the card behind the highlighted choice.

A turn is a walk through small decisions, each from the engine's ``legal()``:
the extras (claim a Goal, flip a Manta, exploit a Depth, use a Tribe) are
offered exactly when the engine allows them, the Main Action plays a Character
whose effects come one at a time (the prompt shows the whole card, the one now
resolving marked), and paying adds one source at a time. Choices are grouped
and labelled from the card data; the details pane under the choices shows the
full card (effect text, Depths, Tribe bonus) of the highlighted choice. All of
that wording is ``AqWords`` (``words.py``, pure); this module holds the screen:
its panes, the board's forms, and the end's score sheet in the players' names.
"""

from __future__ import annotations

import dataclasses
import time
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar, Never

import msgspec
from textual import events
from textual.app import ComposeResult
from textual.widgets import Static

from coldwater.core.aquatica.actions import AqAction
from coldwater.core.aquatica.content import Deck
from coldwater.core.aquatica.model import AqData
from coldwater.core.aquatica.solo import TITLES
from coldwater.core.aquatica.state import AqState
from coldwater.core.aquatica.tribes_solo import LEVELS
from coldwater.core.state import Scores
from coldwater.tui.games.aquatica.board import ALL_PARTS, COMPACT, AquaticaBoard
from coldwater.tui.games.aquatica.words import AqWords
from coldwater.tui.games.words import TableWords
from coldwater.tui.screens.table import Pane, TableScreen
from coldwater.tui.widgets.board import BoardView

if TYPE_CHECKING:
    from coldwater.tui.screens.score import ScoreScreen


def _stylesheet() -> str:
    return str(resources.files("coldwater.themes").joinpath("aquatica.tcss"))


class AquaticaTableScreen(TableScreen[AqState, AqAction, Never]):
    words: AqWords
    WORDS: ClassVar[type[TableWords[Any, Any, Any]]] = AqWords
    BOARD: ClassVar[type[BoardView[Any]]] = AquaticaBoard
    OWN_CONTENT: ClassVar[bool] = True  # every card is drawn from the loaded deck
    CSS_PATH = _stylesheet()
    HELP_KEYS = TableScreen.HELP_KEYS + (
        "\n| F4 / O | The Ocean: Character row, both Location rows with their Depths |"
        "\n| F5 / P | The players: your hand and discard pile, every player's board |"
        "\n| F6 / G | The Goal tracks or the Tribe board |"
    )
    HELP: ClassVar[str] = (
        TableScreen.HELP
        + """
**Aquatica: Cold Waters.** The line under the title: each player's PP so far.
At the top of the board: your turn (the card being played with its effects in
order, ▸ marking the one now resolving; the coins and power gathered in this
Main Action and what they pay for), then your hand and discard pile and your
player board; then the Ocean (Character row with prices, both Location rows:
name, type, coins or power, PP, ✦ a Wild Manta when fully risen, the Depths top
first), the Goal tracks or the Tribe board, and every other player. In a small
terminal the board scrolls (PgUp / PgDn) and three panes show a part on its
own, full-screen: **F4 / O** the Ocean, **F5 / P** the players, **F6 / G** the
Goals or Tribes (the same key closes it). From 110 columns of board the Ocean
and the Goals or Tribes sit beside your own things.

Mantas: ● ready, ○ tired, ⚑ placed on a Goal or Tribe; T trained, W wild. On a
board Location, ▸ is the visible Depth and "N left" the Depths still to exploit.

**A turn.** Before your Main Action you may claim Goals, flip ready Mantas,
exploit effect Depths and use Tribes, as often as they allow. Then play one
Character: its effects come one at a time; *skip* declines one. When a price is
more than you gathered, add sources one by one (Mantas, resource Depths, Tribes).
After it, the extras again, then *end your turn* (**e**, and only that; a skip is a
choice with its digit). The highlighted choice never spends anything and is never
Matrona: extras, purchases and Matrona are yours to pick. Above the choices, at
80×24: the Character row with prices, both Location rows (Sh Shark, Sp Ships,
Ci Civ, Vo Volcano, Fr Frosty; coins/power, PP, ✦ a Wild Manta), your board with
each Location's visible Depth (▸) and how many are left, your Mantas and your PP
by category, the Goals (PP of the next spot, ⚑ who is on it) or Tribes, and the
others; **F2** shows the whole sheet. Under the choices: the full card of the highlighted one. The log announces
Goals claimed, Tribes recruited and the end being triggered. The rules: Esc,
then *Rules*.
"""
    )

    # ---- layout -----------------------------------------------------------------------------
    _drawn: float = 0.0
    drawing_errors: list[str]
    _board_key: tuple[int, int | None, bool, bool] | None = None

    def on_mount(self) -> None:
        # Textual calls every class's on_mount in turn (this one first), so the frame's
        # runs after this by itself: calling it here too would mount the table twice.
        self.drawing_errors = []
        if self.table.state.data.module == "tribes":
            self._name_module_pane("Tribes")

    def _name_module_pane(self, title: str) -> None:
        """The third pane shows the Tribes in a Tribes game: its footer key and heading say so
        (issue 45: the footer said "f6 Goals" with Tribes). PANES is the class's, shared by
        every game; the bindings and the heading are this screen's own copies."""
        keys = self._bindings.key_to_bindings
        for key, bound in keys.items():
            keys[key] = [dataclasses.replace(b, description=title) if b.action == "pane('goals')" else b for b in bound]
        self.query_one("#pane-goals .pane-title", Static).update(title)
        self.refresh_bindings()

    # ---- panes: the Ocean and the players, one key away at any size -----------------------
    PANES: ClassVar[tuple[Pane, ...]] = (
        Pane("ocean", "Ocean", "O"),
        Pane("players", "Players", "P"),
        Pane("goals", "Goals", "G"),
    )
    PANE_PARTS: ClassVar[dict[str, tuple[str, ...]]] = {
        "ocean": ("ocean",),
        "players": ("hand", "me", "others"),
        "goals": ("goals",),
    }

    def compose_pane(self, pane_id: str) -> ComposeResult:
        yield AquaticaBoard(self.table.game, id=f"aq-pane-{pane_id}")

    def action_pane(self, pane_id: str) -> None:
        was_board = self.pane == "board"
        super().action_pane(pane_id)
        if was_board != (self.pane == "board"):  # F2 shows the whole sheet, the table the compact form
            self.update_board(self.current_view())
        if self.pane in self.PANE_PARTS:  # a pane opens at its top, wherever it was left
            box = self.query_one(f"#pane-{self.pane}")
            box.scroll_home(animate=False, immediate=True)
            self.call_after_refresh(box.scroll_home, animate=False)

    def on_resize(self, event: events.Resize) -> None:
        # (Textual calls the frame's on_resize too, as it walks the MRO.) A new height
        # may make the whole sheet fit, or no longer fit: draw it again.
        self._board_key = None
        self.call_after_refresh(self._redraw_board)

    def _redraw_board(self) -> None:
        if self._drawable():  # (after a refresh the screen may be on its way down)
            self.update_board(self.current_view())

    def update_pane(self, pane_id: str, view: AqState) -> None:
        board = self.query_one(f"#aq-pane-{pane_id}", AquaticaBoard)
        board.show(view, self.player_names(), self.viewer, self.PANE_PARTS.get(pane_id, ()))

    def refresh_view(self) -> None:
        t = self.table
        now = time.monotonic()
        if t.current is not None and not t.waiting_for_person and now - self._drawn < 0.25:
            return  # bots and chance moving faster than a person can read: draw the next picture
        self._drawn = now
        super().refresh_view()

    def update_board(self, view: AqState) -> None:
        whole = self.pane == "board"
        key = (self.table.state.ply, self.viewer, self._handing_over, whole)
        if key == self._board_key:
            return  # the same position for the same eyes: already on screen
        self._board_key = key
        try:
            board = self.query_one("#board", AquaticaBoard)
            board.show(view, self.player_names(), self.viewer, ALL_PARTS if whole else COMPACT)
        except Exception as e:  # a drawing bug must not end a game: say so, keep playing (tests: raise)
            self.guard.failed("the board", e)
            self.drawing_errors.append(repr(e))
            self.notify(f"The board could not be drawn ({type(e).__name__}); the game goes on.", severity="error")

    @property
    def deck(self) -> Deck:
        """The compiled cards this game is played with (packaged or the person's own)."""
        return self.words.deck

    def player_names(self) -> list[str]:
        return [s.name for s in self.table.seats]

    def final_scores(self) -> Scores:
        """The engine's score sheet with the players' names, and the solo result spelt out."""
        s: Scores = self.table.state.scores()
        d: AqData = self.table.state.data
        notes = list(s.notes)
        if d.players == 1 and d.solo_level:
            n = d.solo_level
            notes.append(
                f"Tribes Solo level {n}: {LEVELS[n]}."
                + (f" Next time try level {n + 1}: {LEVELS[n + 1]}." if n < 6 else " Next time, beat your score.")
            )
        elif d.players == 1:
            bands, low = [], 0
            for top, name in TITLES:
                bands.append(f"{low}–{top} {name}")
                low = top + 1
            bands.append(f"{low}+ The Kraken")
            notes.append("Solo titles by PP: " + ", ".join(bands) + ".")
        return msgspec.structs.replace(
            s,
            labels=tuple(self.player_names()[: d.players]) + s.labels[d.players :],
            outcome=self.words.named(s.outcome),
            notes=tuple(notes),
        )

    def end_screen(self) -> ScoreScreen:
        from coldwater.tui.screens.score import ScoreScreen

        return ScoreScreen(self.table.game.title, self.final_scores(), self.player_names())


SCREEN = AquaticaTableScreen
"""This game's table screen (the app's catalog finds it by the game's name)."""
