"""The tutor of *Learn to play*: which lesson to show now, and a gentle word after a weak choice.

Pure (no Textual, no I/O), so it is tested by playing whole games without a
terminal. Each game has a lessons module, ``tui/games/<game>/lessons.py``, with
the same shape (:class:`Book`): the kinds of decision it can ask (one per
decision action type, derived from the engine's action list, so a test can
enumerate them), a lesson for each, the flow lessons (how a round goes, how the
game ends, how it scores) with the moment each is due, and a closing lesson for
the end screen. A lesson quotes the numbers of the position where that helps,
and records them in ``facts`` so a test checks them against the position.

The tutor teaches each key once: ``taught`` is the set of keys shown so far,
kept by the caller (the coach saves it in the game's record meta, so a resumed
lesson game does not repeat itself).

The gentle word reads a ranking of (action, estimated value) pairs: the hint
engine's (:func:`hint_ranking`, from ``core.review.hint`` with the choice made
included, run off the UI thread by the coached table), in expected points at the
end of the game; each book's ``HINT_LOSS`` says how far below the best earns a word.
The game's greedy bot's ``values`` (:func:`greedy_ranking`, on each book's own
``GENTLE_LOSS`` scale) stand in where the hint cannot be had (the coached table
falls back to them).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Protocol, cast

import msgspec

from coldwater.core import games as registry
from coldwater.core.notation import Action
from coldwater.core.review import Hint
from coldwater.core.state import Game, State
from coldwater.tui.games import own_module

LOOKS: Final[dict[str, str]] = {
    "board": "the board",
    "player": "your player board",
    "choices": "the choice list",
    "log": "the log",
    "standings": "the standings line (top)",
    "status": "the status line (top)",
}
"""Regions of the table a lesson can point at: the name the screen highlights, and its words."""

WIDTH: Final = 76
"""Columns a lesson's text is wrapped to: an 80-column panel, less its border and padding."""
MAX_LINES: Final = 5
"""At most this many lines at WIDTH: with its title and key line the panel stays under half of 24 rows."""
TITLE_MAX: Final = 60


class Lesson(msgspec.Struct, frozen=True):
    """One thing to teach: shown in the coach panel beside the table."""

    key: str
    """A decision kind (an action tag such as ``place``) or ``flow.<moment>``."""
    title: str
    text: str
    look: str = "board"
    """Which region of the table to look at (a key of LOOKS)."""
    facts: dict[str, int | str] = {}
    """The numbers and names of the position the text quotes."""
    also: tuple[str, ...] = ()
    """Other kinds this lesson teaches too (see ``Book.SAME``)."""

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key this lesson teaches: what the caller adds to its ``taught`` set."""
        return (self.key, *self.also)

    def lines(self, width: int = WIDTH) -> list[str]:
        return textwrap.wrap(self.text, width)


class Book(Protocol):
    """What a game's lessons module offers (``tui/games/<game>/lessons.py``)."""

    GAME: str
    KINDS: tuple[str, ...]
    """Every kind of decision the game can ask: the tags of its decision action types."""
    FLOW: tuple[str, ...]
    """The flow lessons' keys (``flow.…``), the closing lesson excluded."""
    GENTLE_LOSS: float
    """How far below the best, on this game's greedy ranking, a choice earns a gentle word."""
    SAME: dict[str, str]
    """Kinds taught by another kind's lesson (a ``taketop`` by the ``take`` lesson): one lesson, both taught."""
    SEED: str
    """The fixed seed of the game's first game: every learner meets the same, tested, position."""
    FIRST_OPTIONS: dict[str, Any]
    """The first game's options: the base rules."""
    HINT_LOSS: float
    """Expected points (in the game's unit) below the hint engine's best that earn a gentle word.
    Measured with ``tests/bench/coach.py --hints 24 --seeds 0-3`` (docs/benchmarks.md): about one
    decision in ten of a greedy player's, or fewer, clearly gives up that much, so the word marks
    the clear slips, not every small difference."""
    BOT_LOSS: dict[str, float]
    """Each bot level's own points behind the evaluator per decision, as the review measures it
    (tui/coachfigures.py shows them beside a player's figure)."""

    def teach(self, kind: str, view: State[Any, Any], acts: Sequence[Action]) -> Lesson:
        """The lesson of `kind`; `acts` are the legal actions of that kind now (may be empty)."""
        ...

    def flow_due(self, view: State[Any, Any], seat: int) -> list[str]:
        """The flow lessons whose moment has come in `view` (taught or not)."""
        ...

    def flow(self, key: str, view: State[Any, Any], seat: int) -> Lesson: ...

    def closing(self, view: State[Any, Any], seat: int) -> Lesson: ...


def games() -> tuple[str, ...]:
    """The games with lessons (a ``lessons.py`` in their folder), in the registry's order."""
    return tuple(name for name in registry.names() if own_module(name, "lessons") is not None)


def book(game: str) -> Book:
    """The lessons of `game` (``tui/games/<game>/lessons.py``); KeyError for a game without."""
    module = own_module(game, "lessons")
    if module is None:
        raise KeyError(f"no lessons for {game!r}; there are lessons for {', '.join(games())}")
    # A module with the Book's names is a Book; tests/tui/test_lessons.py checks each has them.
    return cast(Book, module)


def tag(action: Action) -> str:
    """The kind of decision an action answers: its notation tag (``place``, ``catch``…)."""
    return type_tag(type(action))


def type_tag(cls: type) -> str:
    config = getattr(cls, "__struct_config__", None)
    t = getattr(config, "tag", None)
    return t if isinstance(t, str) else cls.__name__.lower()


def decision_kinds(types: Iterable[type], chance: Iterable[type]) -> tuple[str, ...]:
    """The tags of the decision action types: every type that is not a chance outcome."""
    skip = set(chance)
    return tuple(type_tag(t) for t in types if t not in skip)


def due(bk: Book, view: State[Any, Any], seat: int, legal: Sequence[Action], taught: Iterable[str]) -> list[Lesson]:
    """The lessons to show now, in order: flow lessons whose moment has come, then
    each kind of decision among `legal` not taught yet (in the order of the list).
    The caller adds each lesson's ``keys`` to `taught` once it is shown."""
    done = set(taught)
    out: list[Lesson] = []
    for key in bk.flow_due(view, seat):
        if key not in done:
            done.add(key)
            out.append(bk.flow(key, view, seat))
    by_kind: dict[str, list[Action]] = {}
    for a in legal:
        by_kind.setdefault(tag(a), []).append(a)
    for kind in list(by_kind):
        if kind in bk.KINDS and kind not in done:
            lead = bk.SAME.get(kind, kind)
            group = [k for k in bk.KINDS if bk.SAME.get(k, k) == lead]
            done.update(group)
            acts = [a for k in group for a in by_kind.get(k, [])]
            lesson = bk.teach(lead, view, acts)
            out.append(msgspec.structs.replace(lesson, also=tuple(k for k in group if k != lesson.key)))
    return out


def seat_to_move(view: State[Any, Any]) -> int:
    """The seat a decision's lesson speaks to: the one to move (seat 0 while chance or nobody is)."""
    cur = view.current
    return cur if cur is not None and cur >= 0 else 0


class Ending(msgspec.Struct, frozen=True):
    """The end of a game for one seat, as a closing lesson says it."""

    points: int
    best: int
    how: str
    """``you won``, ``the winner had N`` (``… too, and won the tie-break``)."""
    where: str = ""
    """The score sheet's line that says most: where the winner was furthest ahead of you, or
    (you won) where you scored most. Empty when the sheet has no categories."""

    @property
    def facts(self) -> dict[str, int | str]:
        facts: dict[str, int | str] = {"points": self.points, "best": self.best}
        if self.where:
            facts["where"] = self.where
        return facts

    def said(self, unit: str = "points") -> str:
        """'You scored 14 points; the winner had 36 (Goals: 4 against 20).'"""
        return f"You scored {self.points} {unit}; {self.how}{f' ({self.where})' if self.where else ''}."


def ending(view: State[Any, Any], seat: int) -> Ending:
    """`seat`'s total, the best total, who won, and the category that made the difference,
    from the view's final scores."""
    sc = view.scores()
    mine = sc.totals[seat] if seat < len(sc.totals) else 0
    best = max(sc.totals) if sc.totals else 0
    won = bool(sc.ranking) and sc.ranking[0] == seat
    how = "you won" if won else f"the winner had {best}" + (" too, and won the tie-break" if mine == best else "")
    where = ""
    if sc.categories and seat < len(sc.rows) and sc.ranking:
        me, top = sc.rows[seat], sc.rows[sc.ranking[0]]
        if won:
            c = max(range(len(me)), key=lambda i: me[i])
            where = f"most from {sc.categories[c]}: {me[c]}" if me[c] > 0 else ""
        else:
            c = max(range(len(me)), key=lambda i: top[i] - me[i])
            where = f"{sc.categories[c]}: {me[c]} against {top[c]}" if top[c] > me[c] else ""
    return Ending(mine, best, how, where)


def closing_lesson(view: State[Any, Any], seat: int, game_title: str, advice: str, unit: str = "points") -> Lesson:
    """A book's closing lesson: "Your first game of <game_title>", how `seat` ended (:meth:`Ending.said`, in
    `unit`), then the game's `advice` for what to try next; on the standings, with the ending's facts."""
    end = ending(view, seat)
    return Lesson(
        "flow.closing", f"Your first game of {game_title}", f"{end.said(unit)} {advice}", "standings", end.facts
    )


def lesson(key: str, title: str, text: str, look: str = "choices", **facts: int | str) -> Lesson:
    """A lesson with the position's numbers it quotes given by name (``hours=5``)."""
    return Lesson(key, title, text, look, dict(facts))


def plural(n: int, word: str, many: str = "") -> str:
    """``1 fish``, ``2 ways``: a count with its noun."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


Ranking = Sequence[tuple[Action, float]]

GENTLE_LOSS: Final = 1.5
"""The default of how much worse than the best (on the ranking's scale) a choice must be
to earn a word; each game's book sets its own ``GENTLE_LOSS`` for its greedy bot's scale."""


def gentle_word(
    chosen: Action, ranked: Ranking, label: Callable[[Action], str] = str, *, threshold: float = GENTLE_LOSS
) -> str | None:
    """A short kind sentence when `chosen` was at least `threshold` below the best of
    `ranked`, else None. `ranked` holds (action, estimated value) for the legal choices."""
    if len(ranked) < 2:
        return None
    best, top = max(ranked, key=lambda av: av[1])
    mine = next((v for a, v in ranked if a == chosen), None)
    if mine is None or best == chosen:
        return None
    loss = top - mine
    if loss < threshold:
        return None
    return f"Not bad to try, but {label(best)} looked stronger there (by about {loss:.1f} on a quick estimate)."


CONFIDENCE: Final = 2.0
"""Standard errors the best must beat the choice made by (as the review's): no word from noise."""


def hint_ranking(h: Hint, chosen: Action, parse: Callable[[str], Action]) -> list[tuple[Action, float]]:
    """The hint engine's ranking for :func:`gentle_word`: the choice made, and the hint's best
    beside it only when it beat the choice clearly (by more than :data:`CONFIDENCE` standard
    errors of their paired difference). `h` must include `chosen` (``hint(..., include=...)``);
    if it does not, the ranking is empty (no guess)."""
    mine = next((c for c in h.choices if c.action == str(chosen)), None)
    if mine is None:
        return []
    best = h.choices[0]
    if best.action == mine.action or mine.behind <= CONFIDENCE * mine.error:
        return [(chosen, mine.value)]
    return [(parse(best.action), best.value), (chosen, mine.value)]


def greedy_ranking(game: Game[Any, Any], view: State[Any, Any], legal: Sequence[Action]) -> list[tuple[Action, float]]:
    """A stand-in hint ranking: the greedy bot's value of each legal action (empty if it has none)."""
    bot = game.bot("greedy")
    values = getattr(bot, "values", None)
    if values is None or not legal:
        return []
    return list(zip(legal, values(view, list(legal)), strict=True))


def fits(lesson: Lesson) -> bool:
    """The lesson fits the panel: a short title and at most MAX_LINES lines at WIDTH columns."""
    return 0 < len(lesson.title) <= TITLE_MAX and 0 < len(lesson.lines()) <= MAX_LINES and lesson.look in LOOKS
