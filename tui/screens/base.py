"""What every screen shares: a help text for ``?`` and a footer of keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Static

if TYPE_CHECKING:
    from coldwater.tui.app import ColdwaterApp


class BaseScreen(Screen[Any]):
    """A screen of the app. One that composes :meth:`hint_line` explains the focused
    field there, while that field has a ``hint`` attribute."""

    HELP: ClassVar[str] = "No help for this screen yet."
    """Markdown shown by ``?``, above the list of this screen's keys."""

    @property
    def cw(self) -> ColdwaterApp:
        return self.app  # type: ignore[return-value]

    def action_back(self) -> None:
        self.dismiss(None)

    def on_screen_resume(self) -> None:
        # A screen that comes up while the terminal is too small gets the notice on top.
        self.cw.check_size()

    @staticmethod
    def hint_line() -> Static:
        return Static("", id="hint", classes="hint", markup=False)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        hints = self.query("#hint")
        if hints:
            text = getattr(event.widget, "hint", "") or ""
            if not isinstance(text, str):
                text = ""
            hints.first(Static).update(text)


class FormScreen(BaseScreen):
    """A screen that is a form: Tab and arrows move between fields, Enter in a
    text field moves on, and Start (its key or its button) submits the form.
    """

    def submit(self) -> None:
        raise NotImplementedError

    def action_next(self) -> None:
        self.focus_next()

    def action_previous(self) -> None:
        self.focus_previous()

    def action_start(self) -> None:
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.submit()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.focus_next()


class BaseModal(ModalScreen[Any]):
    HELP: ClassVar[str] = ""

    @property
    def cw(self) -> ColdwaterApp:
        return self.app  # type: ignore[return-value]

    def action_back(self) -> None:
        self.dismiss(None)

    def on_screen_resume(self) -> None:
        self.cw.check_size()


class ConfirmScreen(BaseModal):
    """A yes/no question: y or Enter on Yes confirms, n or Esc declines. Returns a bool."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        from textual.containers import Horizontal, Vertical

        with Vertical(id="confirm-box"):
            yield Static(self.question, id="confirm-text", markup=False)
            with Horizontal(id="confirm-buttons"):
                yield Button("y  Yes", id="yes", variant="error")
                yield Button("n  No", id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # the safe answer is the default

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
