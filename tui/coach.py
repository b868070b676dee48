"""The coach of a *Learn to play* game: which lesson is on screen, what was shown, and the save.

Pure (no Textual): the table screen (through ``tui/widgets/coach.py``) tells it
what the person sees after each refresh and what they chose; it answers with the
lesson to show. What was shown, and whether the person skipped the lessons, is
kept in the game record's ``meta`` (``lessons_shown``, ``lessons_off``), which the
table saves with every move, so a resumed lesson game never repeats a lesson.
``meta["lesson"]`` names the game the lessons are for: it is what makes a saved
game a lesson game (Resume opens it with the coach again).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from coldwater.core.notation import Action
from coldwater.core.state import Game, State
from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui import tutor
from coldwater.tui.tutor import Lesson

LESSON_META: Final = "lesson"
SHOWN_META: Final = "lessons_shown"
OFF_META: Final = "lessons_off"

OPPONENT: Final = "easy"
"""The learner's opponent: the greedy bot with a slip now and then, beatable in a first game."""


def is_lesson(meta: dict[str, str]) -> bool:
    return meta.get(LESSON_META, "") in tutor.games()


def new_table(game: Game[Any, Any], name: str = "Player 1") -> Table:
    """A first game of `game`: the person against the easy bot, 2 players (never a solo mode: a first
    game should meet the turn a real opponent plays), the book's fixed seed and first options."""
    seats = [Seat(SeatKind.PERSON, name), Seat(SeatKind.BOT, "Easy bot", bot=OPPONENT)]
    meta = {"mode": "learn", LESSON_META: game.name}
    book = tutor.book(game.name)
    return Table.new(game, seats, seed=book.SEED, options=dict(book.FIRST_OPTIONS), meta=meta)


class Coach:
    """The lessons of one game in progress. `meta` is the record's meta (kept up to date);
    `save` writes it out (the table's save) when a lesson was shown between two moves."""

    def __init__(self, game: str, meta: dict[str, str], save: Callable[[], None] | None = None) -> None:
        self.book = tutor.book(game)
        self.meta = meta
        self._save = save
        meta[LESSON_META] = game
        self.taught: set[str] = {k for k in meta.get(SHOWN_META, "").split(",") if k}
        self.off = meta.get(OFF_META) == "1"
        self.queue: list[Lesson] = []
        self.shown: Lesson | None = None
        """The lesson on screen now (None: the panel is hidden)."""
        self.last: Lesson | None = None
        """The latest lesson shown, for "again"."""
        self._again: Lesson | None = None
        """The lesson on the panel because the person asked for it again (T)."""
        self.now: set[str] | None = None
        """The kinds of the decision on screen (None between a choice and the next question):
        a decision's lesson shows only while its decision is asked."""

    # ---- what the table tells it -----------------------------------------------
    def see(self, view: State[Any, Any], seat: int, legal: Sequence[Action]) -> None:
        """The person is asked to choose among `legal` in `view`: queue what is due."""
        if self.off:
            return
        self.now = {tutor.tag(a) for a in legal}
        # A lesson about a decision that is no longer asked waits for its next time
        # (it was never shown, so it is still due then); flow lessons and words stay.
        self.queue = [lesson for lesson in self.queue if self._applies(lesson)]
        if self.shown is not None and not self._applies(self.shown):
            # On the panel, but about another decision than the one on screen (an undo went
            # back past it, or T brought it back): off the panel. Unless the person asked for
            # it again, it was not read at its decision, so it is due again when that comes.
            if self.shown is not self._again:
                self._unmark(self.shown)
            self.shown = None
        queued = {k for lesson in self.queue for k in lesson.keys}
        if self.shown is not None:
            queued.update(self.shown.keys)
        self.queue += tutor.due(self.book, view, seat, legal, self.taught | queued)
        self._advance()

    def chose(
        self, game: Game[Any, Any], view: State[Any, Any], action: Action, label: Callable[[Action], str]
    ) -> None:
        """The person chose `action` in `view`. The lesson on screen is done with: choosing is
        the best "got it". What comes next is not known until the table asks again (:meth:`see`),
        so only a lesson that fits any decision (a word, a flow lesson) may take the panel now.
        (The gentle word on the choice comes later, from the hint engine off the UI thread:
        :meth:`word`.)"""
        if self.off:
            return
        self.shown = None
        self.now = None
        self._advance()

    def word(
        self,
        game: str,
        action: Action,
        ranked: tutor.Ranking,
        label: Callable[[Action], str],
        *,
        threshold: float | None = None,
    ) -> bool:
        """A gentle word on `action` first, if `ranked` (the hint engine's, see
        :func:`tutor.hint_ranking`) says it was clearly weak; True when one was shown.
        `threshold` is for another ranking's scale (default: the hint engine's)."""
        if self.off:
            return False
        if threshold is None:
            threshold = self.book.HINT_LOSS
        text = tutor.gentle_word(action, ranked, label, threshold=threshold)
        if text is None:
            return False
        # Shown at once, while the choice is fresh: a lesson on screen waits, first in the queue.
        if self.shown is not None:
            self.queue.insert(0, self.shown)
        self.shown = self.last = Lesson("word", "A gentle word", text, "choices")
        return True

    def game_over(self, view: State[Any, Any], seat: int) -> Lesson | None:
        """The closing lesson (None if the lessons were skipped); shown once."""
        if self.off:
            return None
        lesson = self.book.closing(view, seat)
        self._mark(lesson)
        return lesson

    # ---- what the person does --------------------------------------------------
    def dismiss(self) -> None:
        """Got it: the next lesson waiting, or none."""
        self.shown = None
        self._advance()

    def again(self) -> None:
        """Show the latest lesson again (it stays taught)."""
        if not self.off and self.last is not None:
            if self.shown is not None and self.shown is not self.last:
                self.queue.insert(0, self.shown)
            self.shown = self._again = self.last

    def skip_all(self) -> None:
        """No more lessons this game (saved: a resume keeps them off)."""
        self.off = True
        self.queue.clear()
        self.shown = None
        self.meta[OFF_META] = "1"
        self._write()

    @property
    def waiting(self) -> int:
        return len(self.queue)

    # ---- inside ------------------------------------------------------------------
    def _applies(self, lesson: Lesson) -> bool:
        """`lesson` fits the decision on screen: a word or a flow lesson fits any; a decision's
        lesson only that decision (none while the next decision is not known yet)."""
        if lesson.key == "word" or lesson.key.startswith("flow."):
            return True
        return self.now is not None and bool(self.now & set(lesson.keys))

    def _advance(self) -> None:
        """Put the first waiting lesson that fits the decision on screen on the panel."""
        if self.shown is not None:
            return
        n = next((n for n, lesson in enumerate(self.queue) if self._applies(lesson)), None)
        if n is not None:
            self.shown = self.last = self.queue.pop(n)
            self._again = None
            self._mark(self.shown)

    def _mark(self, lesson: Lesson) -> None:
        if lesson.key == "word":
            return  # a word about one choice is not a lesson learnt
        new = [k for k in lesson.keys if k not in self.taught]
        if new:
            self.taught.update(new)
            self.meta[SHOWN_META] = ",".join(sorted(self.taught))
            self._write()

    def _unmark(self, lesson: Lesson) -> None:
        gone = self.taught & set(lesson.keys)
        if gone:
            self.taught -= gone
            self.meta[SHOWN_META] = ",".join(sorted(self.taught))
            self._write()

    def _write(self) -> None:
        if self._save is not None:
            self._save()
