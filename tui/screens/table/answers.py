"""Questions nobody needs to be asked: the table answers them itself (docs/tui.md).

A question with one legal answer (unless Settings turn that off, it is the done action, or
it reveals something), a repeated question answered with **!** earlier this game, and a
game's own obvious answer (:meth:`TableScreen.own_answer`: a bait that fits one card, a
lobster that would buy nothing) are answered without asking; the log
says so in brackets. Also the done key's fixed place and the safe highlight (order.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from coldwater.core.notation import Action
from coldwater.core.state import State
from coldwater.tui.widgets.choices import Item

from .order import safe_order

if TYPE_CHECKING:
    from .screen import TableScreen

S = TypeVar("S", bound=State[Any, Any])
A = TypeVar("A", bound=Action)
C = TypeVar("C")


class Answers(Generic[S, A, C]):
    """The table screen's part that answers the obvious and keeps the "!" answers."""

    def __init__(self, screen: TableScreen[S, A, C]) -> None:
        self.screen = screen
        self.always: dict[str, str] = {}
        """Repeated questions answered with "!" this game: question key -> action notation."""
        self.ply = -1
        """The ply last answered here (or just undone to): never answered twice."""
        self.answering = False
        """An answer is on its way: no key may slip in before it."""
        self.giving = False
        """The answer is being played now (a Learn table gives no gentle word for it)."""

    def _says(self, hook: Callable[[S, A | C], object], view: S, value: A | C) -> bool:
        return bool(self.screen.guard.call(False, hook, view, value))  # a hook that fails says no

    def make_safe(self, view: S, items: list[Item[A | C]], pre: int | None) -> tuple[list[Item[A | C]], int]:
        """Give the done action its fixed key and pre-select the game's choice only if it is
        safe, else the first safe one; -1 (nothing highlighted) when none is (order.py)."""
        s = self.screen
        ask = s.decision_words()
        done = [self._says(s.words.is_done, view, item.value) for item in items]
        costly = [self._says(ask.is_costly, view, item.value) for item in items]
        done_ok = bool(s.guard.call(False, s.words.done_is_default, view))
        return safe_order(items, pre, done, costly, done_ok=done_ok)

    def repeat_key(self, view: S) -> str | None:
        return self.screen.guard.call(None, self.screen.words.repeat_key, view)

    def obvious(self, view: S, legal: list[A]) -> tuple[A | C | None, str]:
        """The answer to give without asking, and why in a few words ((None, "") to ask)."""
        s = self.screen
        key = self.repeat_key(view)
        if key is not None and key in self.always:
            action = next((a for a in legal if str(a) == self.always[key]), None)
            if action is not None:
                return action, "as you asked this game"
        if len(legal) == 1 and s.cw.settings.auto_single:
            only = legal[0]
            if not self._says(s.words.is_done, view, only) and not self._says(s.words.reveals, view, only):
                return only, "the only choice"
        return s.own_answer(view, legal)

    def try_now(self, view: S, legal: list[A]) -> bool:
        """Answer a question nobody needs to be asked; True when it did (the move is on its way).

        A question is painted from the drive worker as it finishes, so the worker may still
        be running: the answer then waits for it (:meth:`give`), it is not declined
        (declining left the one-card bait question on screen at every cast, issue 45)."""
        s = self.screen
        ply = s.table.state.ply
        if ply == self.ply or self.answering or s.table.bot_plays:
            # (While a bot plays this seat it answers; an answer made here would take the seat back
            # for a person who is not there.)
            return False
        action, why = self.obvious(view, legal)
        if action is None:
            return False
        self.ply = ply
        s.log_writer.entry("note", f"({why}) {s.label_of(view, action)}")
        self.answering = True  # busy until the answer is in: no key may slip in between
        s.call_later(self.give, action, ply)
        return True

    def give(self, action: A | C, ply: int) -> None:
        s = self.screen
        self.answering = False
        if s.table.state.ply != ply or not s.my_turn() or not s.is_mounted or s.table.bot_plays:
            return
        if s.busy:
            # The worker that painted this question is still finishing: answer just after it.
            self.answering = True
            s.set_timer(0.02, lambda: self.give(action, ply))
            return
        self.giving = True
        try:
            s.choose(action)
        finally:
            self.giving = False

    def keep(self, view: S, value: A | C | None) -> None:
        """**!**: choose the highlighted answer and give it whenever this question returns."""
        s = self.screen
        key = self.repeat_key(view)
        if key is None:
            s.notify("This question is not one that repeats.", timeout=3)
            return
        if value is None:
            s.notify("Highlight the answer to give every time (↑ ↓), then press ! again.", timeout=4)
            return
        why = s.guard.call("", s.words.not_always, view, value)
        if why:
            s.notify(why, timeout=5)
            return
        self.always[key] = str(value)
        said = s.guard.call(s.label_of(view, value), s.words.always_label, view, value, s.viewer)
        s.log_writer.entry("note", f"(from now on this game: {said})")
        s.choose(value)


S_in = TypeVar("S_in", bound=State[Any, Any], contravariant=True)
V_in = TypeVar("V_in", contravariant=True)


class Asking(Protocol[S_in, V_in]):
    """How the decision is put to the person: the game's words (``TableWords``), or a screen's
    own while its state changes the question (a grid cursor)."""

    def prompt(self, view: S_in) -> str: ...

    def step_note(self, view: S_in) -> str: ...

    def is_costly(self, view: S_in, action: V_in) -> bool: ...

    def preview(self, view: S_in, action: V_in) -> str: ...
