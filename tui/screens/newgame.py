"""The new-game form: game, players, each seat, options and an optional seed.

Everything is reachable with ↑ ↓ (fields), ← → (values) and Enter (start).
Solo starts with you in seat 1 and bots elsewhere; hotseat starts with people in
every seat. Options come from the game's own options Struct, so a new option in
an engine appears here without code. A game whose table screen says
``OWN_CONTENT`` also gets a *Card data* field: a person's own printed values.
"""

from __future__ import annotations

import enum
import typing
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args, get_origin

import msgspec
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Static

from coldwater.core.errors import ContentError
from coldwater.core.state import Game
from coldwater.net.play.files import read_content
from coldwater.net.play.table import ContentRef, Seat, SeatKind, Table
from coldwater.tui import keymap
from coldwater.tui import settings as settings_mod
from coldwater.tui.games import words_of
from coldwater.tui.screens.base import FormScreen
from coldwater.tui.settings import FormMemory
from coldwater.tui.widgets.form import Cycler, Field, FormScroll

if TYPE_CHECKING:
    from coldwater.tui.screens.table import TableScreen

MAX_SEATS = 6

CONTENT_HINT = "Your own printed card values (a folder or one file); empty: the stand-in"
SEED_HINT = "Empty: a fresh game; the same seed and seats give the same luck"


def option_hint(name: str, label: str, hints: dict[str, str] | None = None) -> str:
    """The one-line explanation of an option (every option has one): the game's own (its words'
    ``OPTION_HINTS``), else a generic line."""
    return (hints or {}).get(name) or f"{label}: a rule option of this game"


def plain(value: Any) -> Any:
    """An option value as JSON keeps it (an enum by its value), to remember a form's choices."""
    return value.value if isinstance(value, enum.Enum) else value


def has_own_content(game: Game[Any, Any]) -> bool:
    """The game can be played with a person's own card data (``game.with_content``)."""
    return callable(getattr(game, "with_content", None))


def humanize(name: str) -> str:
    return name.replace("_", " ").capitalize()


def option_fields(
    options_type: type[msgspec.Struct],
    extra: dict[str, list[tuple[str, Any]]] | None = None,
) -> list[tuple[str, list[tuple[str, Any]], Any]]:
    """(field, [(label, value)], default) for every option a Cycler can offer.

    `extra` gives the choices of fields whose type alone does not (``int | None``);
    a game's words declare them as ``OPTION_CHOICES``.
    """
    out = []
    hints = typing.get_type_hints(options_type)
    for f in msgspec.structs.fields(options_type):
        tp = hints[f.name]
        default = f.default if f.default is not msgspec.NODEFAULT else None
        choices: list[tuple[str, Any]]
        if extra and f.name in extra:
            choices = list(extra[f.name])
        elif tp is bool:
            choices = [("no", False), ("yes", True)]
        elif get_origin(tp) is Literal:
            choices = [(str(a), a) for a in get_args(tp)]
        elif isinstance(tp, type) and issubclass(tp, enum.Enum):
            choices = [(str(m.value), m) for m in tp]
        elif get_origin(tp) in (typing.Union, __import__("types").UnionType) and all(
            get_origin(a) is Literal or a is type(None) for a in get_args(tp)
        ):
            choices = [("—", None)] + [(str(v), v) for a in get_args(tp) if a is not type(None) for v in get_args(a)]
        else:
            continue  # free-form values have no place in a cycling form
        out.append((f.name, choices, default))
    return out


def show_options(
    form: FormScreen, game: Game[Any, Any], screen_cls: type[TableScreen[Any, Any, Any]]
) -> tuple[list[str], list[Cycler]]:
    """Fill the form's ``#options`` box with one field per option of `game` (any number:
    the box grows and the form scrolls); returns the option names and their fields."""
    words = screen_cls.WORDS
    opts = option_fields(game.options_type, words.OPTION_CHOICES)
    labels, hints = words.OPTION_LABELS, words.OPTION_HINTS
    form.query_one("#options-title", Static).update("Options" if opts else "")
    box = form.query_one("#options", Vertical)
    box.remove_children()
    cyclers = []
    for name, choices, default in opts:
        label = labels.get(name) or humanize(name)
        hint = option_hint(name, label, hints)
        cyclers.append(Cycler(label, choices, default, classes="option", hint=hint, option_name=name))
    if cyclers:
        box.mount_all(cyclers)
    box.display = bool(cyclers)
    return [name for name, _, _ in opts], cyclers


class NewGameScreen(FormScreen):
    BINDINGS = keymap.bindings("back", "nav", "form")
    HELP = """\
**New game.** Move between fields with ↑ ↓ (or Tab), change a value with ← →,
type names and the seed, then press Enter on **Start** (or Ctrl+S). The line at the
bottom explains the field you are on. The form remembers your last choices.

- *Seat*: a person at this keyboard or a bot. `greedy` plays sensibly; `random` picks
  any legal move.
- *Card data*: the folder (or one file, e.g. `kings.json`) with your own printed card
  values; empty plays the packaged stand-in. It is checked before the game starts,
  and a saved game loads it again when resumed.
- *Seed*: leave empty for a fresh game; the same seed and seats replay the same luck.
- One player: the game's solo mode, where it has one; the form says what you play against.
"""

    def __init__(self, mode: str = "solo", game: str | None = None) -> None:
        super().__init__()
        self.mode = mode
        self.games: list[tuple[str, Game[Any, Any]]] = []  # read from the app's catalog on mount
        self.game_name = game or ""
        self.option_names: list[str] = []
        self.option_cyclers: list[Cycler] = []
        """The option fields of the game chosen now (old ones may still be leaving the DOM)."""

    # The catalog is read on mount (the app is not attached in __init__).
    def compose(self) -> ComposeResult:
        with FormScroll(id="form", classes="page"):
            yield Static("Solo game against bots" if self.mode == "solo" else "Hotseat game", classes="page-title")
            yield Cycler("Game", [("…", "")], id="game", hint="Which game to play; ← → changes it")
            yield Cycler("Players", [("2", 2)], id="players", hint="How many seats the table has")
            for i in range(MAX_SEATS):
                with Horizontal(classes="seat-row", id=f"seat-row-{i}"):
                    yield Cycler(
                        f"Seat {i + 1}",
                        [("person", "person")],
                        id=f"seat-{i}",
                        classes="seat-kind",
                        hint="A person at this keyboard, or a bot: easy, normal or hard (greedy answers at once)",
                    )
                    yield Field(
                        placeholder="name",
                        id=f"name-{i}",
                        classes="seat-name",
                        max_length=16,
                        hint="The name shown at the table and in the log",
                    )
            yield Static("", id="options-title", classes="section")
            yield Vertical(id="options")
            yield Static("", id="solo-note", classes="note")
            with Horizontal(classes="seed-row"):
                yield Static("Seed", classes="seed-label")
                yield Field(placeholder="empty: a fresh game", id="seed", max_length=40, hint=SEED_HINT)
            # Right under the seed, without a gap: two text fields that belong together.
            with Horizontal(classes="content-row", id="content-row"):
                yield Static("Card data", classes="seed-label")
                yield Field(placeholder="empty: the packaged stand-in", id="content-path", hint=CONTENT_HINT)
            yield Static("", id="form-error", classes="error", markup=False)
            yield Button("Start", id="start", variant="primary")
        yield self.hint_line()
        yield Footer()

    @property
    def memory(self) -> FormMemory:
        return self.cw.settings.forms.get(self.mode) or FormMemory()

    def on_mount(self) -> None:
        self.games = self.cw.catalog.available()
        if not self.games:
            self.query_one("#form-error", Static).update("No game engine is installed in this build.")
            return
        names = [n for n, _ in self.games]
        if self.game_name not in names:
            self.game_name = self.memory.game if self.memory.game in names else names[0]
        self.query_one("#game", Cycler).set_choices([(g.title, n) for n, g in self.games], self.game_name)
        self._setup_game()
        self._recall()
        self.query_one("#game", Cycler).focus()

    @property
    def game(self) -> Game[Any, Any]:
        return dict(self.games)[self.game_name]

    def _setup_game(self) -> None:
        g = self.game
        lo = 1 if self.mode == "solo" else max(2, g.min_players)
        lo = max(lo, g.min_players)
        counts = list(range(lo, g.max_players + 1)) or [g.min_players]
        default = 2 if 2 in counts else counts[0]
        self.query_one("#players", Cycler).set_choices([(str(c), c) for c in counts], default)
        kinds = [("person", "person")] + [(f"bot: {b}", f"bot:{b}") for b in g.bots]
        best_bot = f"bot:{g.bots[-1]}" if g.bots else "person"
        for i in range(MAX_SEATS):
            kind = "person" if self.mode == "hotseat" or i == 0 else best_bot
            self.query_one(f"#seat-{i}", Cycler).set_choices(kinds, kind)
            self._default_name(i, kind)
        screen_cls = self.cw.catalog.table_screen(self.game_name)
        self.option_names, self.option_cyclers = show_options(self, g, screen_cls)
        self.query_one("#content-row").display = has_own_content(g)
        self._show_seats()

    def _recall(self) -> None:
        """Put back the last choices made in this form: all of them for the same game; for
        another game the seats (the bot level you last chose) where it has that bot."""
        mem = self.memory
        if mem.game != self.game_name:
            for i, kind in enumerate(mem.seats[:MAX_SEATS]):
                if kind.startswith("bot:"):
                    self.query_one(f"#seat-{i}", Cycler).select(kind)  # (a bot this game lacks: no change)
            return
        self.query_one("#players", Cycler).select(mem.players)
        for i, kind in enumerate(mem.seats[:MAX_SEATS]):
            self.query_one(f"#seat-{i}", Cycler).select(kind)
        for i, name in enumerate(mem.names[:MAX_SEATS]):
            if name:
                self.query_one(f"#name-{i}", Input).value = name
        self._recall_options(dict(mem.options))
        self.query_one("#content-path", Input).value = mem.content
        self._show_seats()

    def _recall_options(self, options: dict[str, Any]) -> None:
        for name, c in zip(self.option_names, self.option_cyclers):
            if name in options:
                c.select(next((v for _, v in c.choices if plain(v) == options[name]), options[name]))

    def action_back(self) -> None:
        # Left with Esc too, not only on Start: the game and bot level chosen are what the
        # next new game starts from (issue 45: the form forgot them).
        if self.games and self.cw.settings.forms.get(self.mode) != self._memory_now():
            self._remember()
        super().action_back()

    def _memory_now(self) -> FormMemory:
        n = self.query_one("#players", Cycler).value
        return FormMemory(
            game=self.game_name,
            players=n,
            seats=[self.query_one(f"#seat-{i}", Cycler).value for i in range(n)],
            names=[self.query_one(f"#name-{i}", Input).value for i in range(n)],
            options={k: plain(v) for k, v in self.options().items()},
            content=self.query_one("#content-path", Input).value.strip(),
        )

    def _remember(self) -> None:
        self.cw.settings.forms[self.mode] = self._memory_now()
        try:
            settings_mod.save(self.cw.settings)
        except OSError as e:  # the game still starts; only the memory of the form is lost
            self.notify(f"Cannot keep the form's choices: {e}", severity="warning")

    def _default_name(self, i: int, kind: str) -> None:
        name = self.query_one(f"#name-{i}", Input)
        if kind == "person":
            value = f"Player {i + 1}"
        else:
            value = f"{kind.split(':', 1)[1].capitalize()} bot {i + 1}"
        name.value = value

    def _show_seats(self) -> None:
        n = self.query_one("#players", Cycler).value
        for i in range(MAX_SEATS):
            self.query_one(f"#seat-row-{i}").display = i < n
        note = words_of(self.game_name).SOLO_NOTE if n == 1 else ""
        self.query_one("#solo-note", Static).update(note)
        self.query_one("#solo-note", Static).display = bool(note)

    def on_cycler_changed(self, event: Cycler.Changed) -> None:
        cid = event.cycler.id or ""
        if cid == "game" and event.value and event.value != self.game_name:
            self.game_name = event.value
            self._setup_game()
            self._recall()
        elif cid == "players":
            self._show_seats()
        elif cid.startswith("seat-"):
            i = int(cid.split("-")[1])
            name = self.query_one(f"#name-{i}", Input).value
            if name.startswith("Player ") or " bot " in name:
                self._default_name(i, event.value)

    def submit(self) -> None:
        self.start()

    def seats(self) -> list[Seat]:
        n = self.query_one("#players", Cycler).value
        out = []
        for i in range(n):
            kind = self.query_one(f"#seat-{i}", Cycler).value
            name = self.query_one(f"#name-{i}", Input).value.strip() or f"Seat {i + 1}"
            if kind == "person":
                out.append(Seat(SeatKind.PERSON, name))
            else:
                out.append(Seat(SeatKind.BOT, name, bot=kind.split(":", 1)[1]))
        return out

    def options(self) -> dict[str, Any]:
        return {name: c.value for name, c in zip(self.option_names, self.option_cyclers)}

    def content(self) -> tuple[Game[Any, Any], ContentRef | None]:
        """The game with the card data the form names (ContentError if it does not load)."""
        return own_content(self.game, self.query_one("#content-path", Input).value.strip())

    def start(self) -> None:
        error = self.query_one("#form-error", Static)
        if not self.games:
            return
        error.update("")
        seats = self.seats()
        if not any(s.kind is SeatKind.PERSON for s in seats):
            error.update("At least one seat must be a person.")
            return
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            error.update("Give every seat a different name.")
            return
        try:
            game, content = self.content()
        except (ContentError, OSError) as e:
            error.update(f"Card data: {e}")
            error.scroll_visible()
            self.query_one("#content-path", Input).focus()
            return
        seed = self.query_one("#seed", Input).value.strip() or None
        try:
            table = Table.new(game, seats, seed=seed, options=self.options(), meta={"mode": self.mode}, content=content)
        except (ValueError, OSError, ImportError) as e:
            error.update(f"Cannot start: {e}")
            error.scroll_visible()
            return
        self._remember()
        screen_cls = self.cw.catalog.table_screen(self.game_name)
        self.app.switch_screen(screen_cls(table))


def own_content(game: Game[Any, Any], text: str) -> tuple[Game[Any, Any], ContentRef | None]:
    """`game` with the card data at path `text` (empty: the packaged content, no ref).

    ContentError or OSError if it does not load. The same values as the packaged
    ones count as the packaged content: there is nothing to remember.
    """
    if not text or not has_own_content(game):
        return game, None
    # Absolute, so resuming does not depend on the folder coldwater was started in.
    path = Path(text).expanduser().resolve()
    mine = game.with_content(read_content(path))
    if mine.content_hash == game.content_hash:
        return game, None
    return mine, ContentRef(str(path), mine.content_hash)
