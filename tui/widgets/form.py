"""Small keyboard-first form controls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input


class Cycler(Widget, can_focus=True):
    """A labelled value changed with ← → (or Space/Enter, which step forward)."""

    BINDINGS = [
        Binding("left", "step(-1)", "Previous value", show=False),
        Binding("right,space,enter", "step(1)", "Next value", show=False),
    ]
    DEFAULT_CSS = "Cycler { height: 1; width: 1fr; }"

    index: reactive[int] = reactive(0)

    class Changed(Message):
        def __init__(self, cycler: Cycler, value: Any) -> None:
            super().__init__()
            self.cycler = cycler
            self.value = value

        @property
        def control(self) -> Cycler:
            return self.cycler

    def __init__(
        self,
        label: str,
        choices: Sequence[tuple[str, Any]],
        value: Any = None,
        *,
        id: str | None = None,
        classes: str | None = None,
        hint: str = "",
        option_name: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.label = label
        self.option_name = option_name
        """The game option this field sets, for a form of game options (None otherwise)."""
        self.hint = hint
        """The one-line explanation the form shows while this field is focused."""
        self.choices = list(choices)
        values = [v for _, v in self.choices]
        self.set_reactive(Cycler.index, values.index(value) if value in values else 0)

    @property
    def value(self) -> Any:
        return self.choices[self.index][1]

    def set_choices(self, choices: Sequence[tuple[str, Any]], value: Any = None) -> None:
        self.choices = list(choices)
        values = [v for _, v in self.choices]
        self.index = values.index(value) if value in values else 0
        self.refresh()

    def select(self, value: Any) -> None:
        values = [v for _, v in self.choices]
        if value in values:
            self.index = values.index(value)

    def action_step(self, delta: int) -> None:
        if len(self.choices) > 1:
            self.index = (self.index + delta) % len(self.choices)

    def watch_index(self) -> None:
        self.post_message(self.Changed(self, self.value))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self) -> None:
        self.focus()
        self.action_step(1)

    def render(self) -> Text:
        text = self.choices[self.index][0] if self.choices else "—"
        # The labels of one form line up, and a long one keeps a space before its value.
        peers = self.parent.query_children(Cycler) if self.parent is not None else ()
        width = max([16, len(self.label) + 1, *(len(c.label) + 1 for c in peers)])
        return Text.assemble(
            (self.label.ljust(width), "bold"),
            ("◀ ", "dim"),
            (text, "reverse" if self.has_focus else "underline"),
            (" ▶", "dim"),
        )


class FormScroll(VerticalScroll, inherit_bindings=False, can_focus=False):
    """A scrolling form page that leaves ↑ ↓ ← → to the fields.

    A plain VerticalScroll binds the arrows to scrolling, and it sits between a
    focused field and the screen, so ↑ ↓ scrolled the page instead of moving
    between fields. Focusing a field still scrolls it into view, so a form with
    any number of fields stays reachable by keyboard.
    """


class Field(Input):
    """A one-line text field: one row high, no border, so it reads at 80×24 inside a row.

    `hint` is the one-line explanation the form shows while the field is focused.
    """

    DEFAULT_CSS = """
    Field {
        height: 1;
        border: none;
        padding: 0 1;
        width: 1fr;
        max-width: 60;
        background: $boost;
    }
    Field:focus {
        border: none;
        background: $panel;
    }
    """

    def __init__(self, value: str | None = None, *, hint: str = "", **kw: Any) -> None:
        super().__init__(value, **kw)
        self.hint = hint
