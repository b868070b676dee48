"""Learn to play at the table: the lesson panel, and the small hook that gives a table a coach.

:func:`coached` makes a lesson game's screen from any game's table screen: a
subclass that, after each refresh, asks its :class:`~coldwater.tui.coach.Coach`
for the lesson to show and puts it in a :class:`CoachPanel` in the place of the
short log (the log comes back when the panel is dismissed). Nothing else of the
table changes: the choices keep their keys, and the panel takes no focus, so a
lesson never blocks a move (choosing is itself "got it"). Its keys are capitals
(g a page more or got it, t again, x no more lessons; capitals too), which a Learn
table never gives a choice as its hotkey.

The hook is a subclass rather than code in the table screen because the table
screen is being restructured: the overrides below (mount, refresh, choose, the
table's own answer, end_screen) are the whole seam.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from textual.app import ComposeResult
from textual.color import Color
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from coldwater.core.notation import Action
from coldwater.net.play.thinker import hint_here
from coldwater.tui import keymap, tutor
from coldwater.tui.coach import Coach, is_lesson
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen, with_names
from coldwater.tui.tutor import LOOKS, Lesson

REGIONS: dict[str, str] = {
    "board": "#board-scroll",
    "player": "#board-scroll",
    "choices": "#decision-box",
    "log": "#log",
    "standings": "#standings",
    "status": "#status",
}
"""Which widget of the table each region of a lesson names (tutor.LOOKS)."""

LOOK_TINT = Color(255, 200, 60, 0.12)
"""A light wash over the region a lesson points at: it must not hide what it shows."""


def key_of(action: str) -> str:
    """The key bound to a coach action, in words: its first key (the lowercase letter)."""
    key = next(k for k in keymap.DEFAULT if k.scope == "coach" and k.action == f"coach('{action}')")
    return keymap.describe_keys(key.keys.split(",")[0])


class CoachPanel(VerticalScroll):
    """One lesson: its title, its text, where to look, and the panel's keys."""

    DEFAULT_CSS = """
    CoachPanel {
        height: 1fr;
        border: round $accent;
        border-title-style: bold;
        padding: 0 1;
        background: $surface;
        scrollbar-size-vertical: 1;
    }
    CoachPanel > .coach-look { color: $accent; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(can_focus=False, **kw)
        self.lesson: Lesson | None = None
        self.waiting = 0

    def compose(self) -> ComposeResult:
        yield Static(classes="coach-look", id="coach-look")
        yield Static(id="coach-text")

    def show(self, lesson: Lesson, waiting: int) -> None:
        self.lesson = lesson
        self.waiting = waiting
        self.border_title = lesson.title
        # Where to look first: at 80x24 the panel is small, and the text may need a page more.
        self.query_one("#coach-look", Static).update(f"▸ Look at {LOOKS[lesson.look]}.")
        self.query_one("#coach-text", Static).update(lesson.text)
        self.scroll_home(animate=False)
        self.update_keys()
        self.call_after_refresh(self.update_keys)  # how much is hidden is known once laid out

    @property
    def more_below(self) -> bool:
        return self.scroll_y < self.max_scroll_y

    def update_keys(self) -> None:
        """The keys, in the border where they are always seen: G turns the page while the
        lesson goes on below, then it is "got it"."""
        if self.more_below:
            first = f"{key_of('next')} more"
        else:
            first = f"{key_of('next')} next ({self.waiting})" if self.waiting else f"{key_of('next')} got it"
        self.border_subtitle = f"{first} · {key_of('again')} again · {key_of('skip')} off"


class CoachedTable:
    """The lesson game's additions to a table screen (mixed in by :func:`coached`)."""

    coach: Coach
    _looking: Widget | None = None
    _chosen = 0
    """The learner's choices made at this screen: a gentle word is shown only for the latest."""
    gentle_words = 0
    """Gentle words shown (tests)."""

    def coach_panel(self: Any) -> CoachPanel:
        panel: CoachPanel = self.query_one(CoachPanel)
        return panel

    def on_mount(self: Any) -> None:
        t = self.table
        self.coach = Coach(t.game.name, t.record.meta, t.save)
        self.query_one("#side").mount(CoachPanel(id="coach"), before="#log")
        self.coach_panel().display = False
        self.decision.reserved = keymap.LESSON_KEYS  # g t x: the panel's
        super().on_mount()  # type: ignore[misc]

    def refresh_view(self: Any) -> None:
        super().refresh_view()  # type: ignore[misc]
        if not self._composed or not self.query(CoachPanel):
            return
        if self.my_turn() and self.viewer is not None and not self.answers.answering:
            # (A question the table answers alone is never on screen: nothing to teach.)
            view = self.current_view()
            self.coach.see(view, self.viewer, view.legal())
        self.show_lesson()

    def choose(self: Any, action: Any) -> None:
        if isinstance(action, Action) and self.my_turn() and not self.busy and not self.answers.giving:
            view = self.current_view()
            self.coach.chose(self.table.game, view, action, lambda a: self.label_of(view, a))
            if not self.coach.off:
                self._chosen += 1
                # The gentle word comes from the hint engine's playouts, which take a second or
                # so: off the UI thread (the bots' worker process), never blocking the next key.
                self.run_worker(self._gentle(view, action, self._chosen), group="gentle", exit_on_error=False)
        super().choose(action)  # type: ignore[misc]
        self.show_lesson()

    def end_screen(self: Any) -> ScoreScreen:
        """The score sheet, with the closing lesson at its top (once: the coach marks it taught)."""
        screen: ScoreScreen = super().end_screen()  # type: ignore[misc]
        if self.viewer is not None:
            view = self.table.state.view(self.viewer)
            screen.closing = self.coach.game_over(view, self.viewer)
        return screen

    async def _gentle(self: Any, view: Any, action: Action, nth: int) -> None:
        t = self.table
        thinker = self.cw.thinker
        content = t.content.path if t.content is not None else None
        threshold: float | None = None
        try:
            if thinker is not None:
                found = await thinker.hint(t.game, content, view, include=action)
            else:
                found = await hint_here(t.game, view, include=action)
            ranked = tutor.hint_ranking(found, action, t.game.parse_action)
        except Exception:  # no search for this position: the greedy bot's values, on their own scale
            ranked = tutor.greedy_ranking(t.game, view, view.legal())
            threshold = self.coach.book.GENTLE_LOSS
        if nth != self._chosen or not self.is_mounted:
            return  # the learner has chosen again since: a word on an older choice would confuse
        names = [s.name for s in t.seats]

        def label(a: Action) -> str:
            return with_names(self.label_of(view, a), names)

        if self.coach.word(t.game.name, action, ranked, label, threshold=threshold):
            self.gentle_words += 1
            self.show_lesson()

    def show_lesson(self: Any) -> None:
        panel = self.coach_panel()
        lesson = self.coach.shown
        log = self.query_one("#log")
        if lesson is None:
            panel.display = False
            log.display = not self.hints.active  # a hint on screen keeps the log's place
            self.look_at(None)
            self.fit_side()
            return
        panel.show(lesson, self.coach.waiting)
        panel.display = True
        log.display = False
        self.look_at(REGIONS.get(lesson.look))
        self.fit_side()  # the taller strip

    def panel_open(self: Any) -> bool:
        return bool(super().panel_open()) or bool(self.coach_panel().display)  # type: ignore[misc]

    def look_at(self: Any, selector: str | None) -> None:
        if self._looking is not None:
            self._looking.styles.tint = None
            self._looking = None
        if selector is not None:
            target = self.query_one(selector)
            target.styles.tint = LOOK_TINT
            self._looking = target

    def action_coach(self: Any, what: str) -> None:
        panel = self.coach_panel()
        if what == "next" and panel.display and panel.more_below:
            panel.scroll_page_down(animate=False)
            panel.call_after_refresh(panel.update_keys)
            return
        if what == "next":
            self.coach.dismiss()
        elif what == "again":
            self.coach.again()
        elif what == "skip":
            self.coach.skip_all()
            self.notify("No more lessons this game. The table plays on as usual.", timeout=4)
        self.show_lesson()


@cache  # one class per screen class: Textual keys its CSS and bindings by class
def coached(screen_cls: type[TableScreen[Any, Any, Any]]) -> type[TableScreen[Any, Any, Any]]:
    """The lesson-game version of a game's table screen."""
    # BINDINGS in the new class itself: Textual merges them only from DOMNode classes, not a mixin.
    own = {"BINDINGS": keymap.bindings("coach")}
    made: type[TableScreen[Any, Any, Any]] = type(f"Coached{screen_cls.__name__}", (CoachedTable, screen_cls), own)
    return made


def screen_for(screen_cls: type[TableScreen[Any, Any, Any]], meta: dict[str, str]) -> type[TableScreen[Any, Any, Any]]:
    """The screen to open a saved game with: coached if its record says it is a lesson game."""
    return coached(screen_cls) if is_lesson(meta) else screen_cls
