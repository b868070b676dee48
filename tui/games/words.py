"""A game's words for its table: the pure object a table screen is given.

(Here, beside the games' folders and outside ``tui/screens/table/``, so that a
game's ``words.py`` imports no Textual: the frame's package imports its screen.)

:class:`TableWords` says everything the frame shows in words, from a position
(``view``: the state as the person looking may see it) and the seats' names: the
choices' labels and groups, which choice is the done one, which cost something or
reveal something, the prompt and "1 of 2", the preview of a choice, the
standings and status lines, the round and turn, and the log's words (who acted,
★ announcements, chance lines in fewer words). It holds no Textual object and no
screen state, so a game's words are unit-tested from positions alone. The
defaults word any game through the core contract (``State.describe``); a game's
own (``tui/games/<game>/words.py``) subclasses it and is named by the game's
screen (``TableScreen.WORDS``). The frame calls every method through its guard
(guard.py), so a method that raises never stops a game.

What the screen itself decides (which choices the list offers right now, say
while a game's own cursor is out) stays with the screen, which asks its words for
the rest. Beyond the table, the words also hold the game's facts the screens around it
show (its options on the New game form, what one player plays against, what its own card
data is, what is won along the way): those screens find them by the game's name
(``tui.games.words_of``) and name no game themselves.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from coldwater.core.clock import Clock
from coldwater.core.notation import Action
from coldwater.core.review import Hint
from coldwater.core.state import CHANCE, Game, State

S = TypeVar("S", bound=State[Any, Any])
"""The game's State subclass: every view a method is given."""
A = TypeVar("A", bound=Action)
"""The game's action type (the union of its action classes): every action a method is given."""
C = TypeVar("C")
"""The screen's own choices that are not actions (a "place a tile" that opens a cursor before
any action is chosen); ``Never`` for a game without."""

V = TypeVar("V")


class Won(msgspec.Struct, frozen=True):
    """Something a party won between two positions (a trophy, a goal), as the end screen lists it."""

    seat: int
    """The seat that won it; -1 for a party that is no seat (then `who` names it)."""
    text: str
    who: str = ""


class Choice(msgspec.Struct, Generic[V], frozen=True):
    """One entry of the decision list, before Textual sees it (the screen makes it a list item)."""

    label: str
    value: V
    group: str = ""


HINT_NOTABLE = 0.3
"""Expected points a score category must differ by to be named in a hint's reason: below
that, the playouts' noise (a few tenths at the hint's budget) would be the reason."""


DONE_TAGS: frozenset[str] = frozenset({"end", "pass", "done", "stop"})
"""Notation tags the default :meth:`TableWords.is_done` takes for "end your turn"/pass."""


class TableWords(Generic[S, A, C]):
    """Any game's table in words, through the core contract (see the module docstring)."""

    def __init__(self, game: Game[Any, Any], names: list[str]) -> None:
        self.game = game
        self.names = list(names)
        """The seats' names, in seat order (the engines say "Seat 2")."""

    def seat_name(self, seat: int) -> str:
        """A seat in words: its name ("Chance" for the chance marker)."""
        if seat == CHANCE:
            return "Chance"
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"

    # ---- the decision -------------------------------------------------------------
    def choice_items(
        self, view: S, legal: list[A], label: Callable[[S, A | C], str]
    ) -> tuple[list[Choice[A | C]], int | None]:
        """The legal actions as list items (grouped) and the one to pre-select, each worded by
        `label` (the frame's: :meth:`label` for the person looking, through its guard).

        The frame then makes the pre-selection safe (never costly, never done) and
        gives the done action its fixed key."""
        return [Choice(label(view, a), a, group=self.group(view, a)) for a in legal], None

    def label(self, view: S, action: A | C, viewer: int | None) -> str:
        return view.describe(action)

    def plain_label(self, view: S, action: A | C) -> str:
        """The words shown when :meth:`label` fails (the frame falls back to the notation after)."""
        return view.describe(action)

    def group(self, view: S, action: A | C) -> str:
        return ""

    def prompt(self, view: S) -> str:
        return "Your choice"

    def step_note(self, view: S) -> str:
        """Where a multi-step action stands, e.g. "1 of 2"; shown after the prompt."""
        return ""

    def is_done(self, view: S, action: A | C) -> bool:
        """True for the action that ends the turn / passes / says done (it gets the fixed key)."""
        return str(action).split(" ", 1)[0] in DONE_TAGS

    def is_costly(self, view: S, action: A | C) -> bool:
        """True for an action that spends a resource or discards; never highlighted by default."""
        return False

    def reveals(self, view: S, action: A | C) -> bool:
        """True for an action that shows something hidden (a draw, a look): never answered
        automatically, even when it is the only one."""
        return False

    def done_is_default(self, view: S) -> bool:
        """The done action is the harmless answer to this question, so it is highlighted
        ("Keep it" where keeping changes nothing: the turn goes on as it would have). Else the
        highlight never ends anything."""
        return False

    def not_always(self, view: S, action: A | C) -> str:
        """Why "!" may not make `action` the answer for the rest of the game ("" when it may):
        a one-time choice (discarding the lobster) is made with its own key."""
        return ""

    def always_label(self, view: S, action: A | C, viewer: int | None) -> str:
        """The answer "!" keeps, in words that stay true while it is given again (no counts)."""
        return self.label(view, action, viewer)

    def look(self, view: S, row: str, viewer: int | None) -> list[str]:
        """What a row of the board shows, in full, for the look-up cursor (F7): a card's whole
        text, a Location's Depths... Default: the row itself, never cut."""
        return [row.strip()]

    def repeat_key(self, view: S) -> str | None:
        """A name for a question that comes back again and again (the lobster prompt);
        such a question can be answered once for the game with "!". None: not one."""
        return None

    def preview(self, view: S, action: A | C) -> str:
        """What the highlighted choice will do, when that is knowable ("" for nothing)."""
        return ""

    # ---- the lines above the board ---------------------------------------------------
    def standings(self, view: S, viewer: int | None) -> str:
        """One line shown at every size (e.g. "PP: Ann 12 · Bot 9"); "" says nothing."""
        return ""

    def status(self, view: S, viewer: int | None) -> str:
        title = self.game.title
        if view.current is None:
            return f"{title} — game over"
        return f"{title} — {self.seat_name(view.current)} to play"

    def clock_text(self, view: S, clock: Clock) -> str:
        """The round and turn in the title ("round 3 · turn 5"); a game may name its rounds."""
        return "setting up" if clock.setup else clock.text()

    # ---- the log ------------------------------------------------------------------------
    def party_name(self, party: int) -> str:
        """Whose turn `party`'s is, in words (a party numbered from the seats: "Silent player")."""
        return self.seat_name(party)

    def actor_name(self, view: S, seat: int, action: A) -> str:
        """Who made `action` in words: the seat's name, or "Silent player", "The rival"..."""
        return self.seat_name(seat)

    def announcements(self, before: S, after: S, seat: int, action: A) -> list[str]:
        """Lines worth a ★ in the log after `action` (trophies, completions, goals, the end)."""
        return []

    def summarize_chance(self, lines: list[str]) -> list[str]:
        """Several chance lines in fewer words (default: as they are)."""
        return lines

    # ---- around the table: the New game and Join forms, Resume and Replays, the end screen ----
    OPTION_LABELS: ClassVar[dict[str, str]] = {}
    """The game's options as the New game form names them (an option not listed is humanized)."""
    OPTION_HINTS: ClassVar[dict[str, str]] = {}
    """One line per option, shown while it is focused (an option not listed gets a generic line)."""
    OPTION_CHOICES: ClassVar[dict[str, list[tuple[str, Any]]]] = {}
    """An option's values on the form, where its type alone would list them badly."""
    SOLO_NOTE: ClassVar[str] = ""
    """What one player plays against, shown on the New game form when one seat is chosen."""
    CONTENT_FILES: ClassVar[str] = "its card data file"
    """What a person's own card data for this game is, so the Join form tells a joiner what to bring."""
    NOTHING_WON: ClassVar[str] = "This game has nothing to win along the way."
    """The end screen's line when no party won anything along the way (see :meth:`milestones`)."""

    @staticmethod
    def variant(options: dict[str, Any], players: int) -> str:
        """Which way of playing the game a record's options and seats make, where the game has several a
        person tells apart (Resume and Replays add it to the title); "" where there is one."""
        return ""

    def milestones(self, before: S | None, after: S) -> list[Won]:
        """What each party won from `before` to `after` (from the setup, when `before` is None), in order."""
        return []

    def rival_result(self, final: S) -> str:
        """Where a solo rival that is no seat ended, for the end screen ("" for a game without one)."""
        return ""

    # ---- hints (issue 31; the frame's hint panel) -------------------------------------
    @property
    def HINT_UNIT(self) -> str:
        """What the game's margins are counted in: its engine's ``Game.unit``, as the rulebook says."""
        return self.game.unit

    HINT_TERMS: ClassVar[dict[str, str]] = {}
    """The engine's score categories in the game's words for a hint's reason; a category
    mapped to "" is never a reason (a tie-break count). Unlisted ones are used as named."""

    def hint_term(self, category: str) -> str:
        return self.HINT_TERMS.get(category, category)

    def hint_rival(self, label: str) -> str:
        """The rival row of a hint in words: a seat's name, "the Silent player", "the leader"."""
        m = re.fullmatch(r"Seat (\d+)", label)
        if m:
            return self.seat_name(int(m[1]) - 1)
        return label if label.startswith("the ") else f"the {label}"

    def hint_reason(self, hint: Hint, n: int) -> str:
        """One line saying what choice `n` of `hint` gains, in the game's words.

        The best is compared with the runner-up, each other choice with the best: the
        score categories (and the rival's total) that differ most between the two, by at
        least :data:`HINT_NOTABLE` ("+2.1 points from the Lake contest; Ann ends 1.5 lower")."""
        if not 0 <= n < len(hint.choices):
            return ""
        if len(hint.choices) < 2:
            return "the only choice worth a look"
        me, ref = hint.choices[n], hint.choices[1 if n == 0 else 0]
        unit = self.HINT_UNIT
        terms: list[tuple[float, str, str]] = []
        """(difference, how it reads as a gain, how it reads as a loss)."""
        for c, category in enumerate(hint.categories):
            term = self.hint_term(category)
            if term and c < len(me.own) and c < len(ref.own):
                d = me.own[c] - ref.own[c]
                terms.append((d, f"+{d:.1f} {unit} from {term}", f"\u2212{-d:.1f} {unit} from {term}"))
        if hint.rival:
            rival = self.hint_rival(hint.rival)
            d = ref.rival - me.rival  # the rival ending lower is a gain
            terms.append((d, f"{rival} ends {d:.1f} lower", f"{rival} ends {-d:.1f} higher"))
        gains = [g for d, g, _ in sorted(terms, key=lambda t: -t[0]) if d >= HINT_NOTABLE]
        losses = [lo for d, _, lo in sorted(terms, key=lambda t: t[0]) if d <= -HINT_NOTABLE]
        if n == 0:
            return "; ".join(gains[:2]) if gains else "small gains all over, no single one"
        said = losses[:1] + gains[:1]
        return "; ".join(said) if said else "close to the best"
