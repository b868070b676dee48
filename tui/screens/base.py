"""What every screen shares: a help text for ``?`` and a footer of keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.screen import ModalScreen, Screen

if TYPE_CHECKING:
    from coldwater.tui.app import ColdwaterApp


class BaseScreen(Screen[Any]):
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


class BaseModal(ModalScreen[Any]):
    HELP: ClassVar[str] = ""

    @property
    def cw(self) -> ColdwaterApp:
        return self.app  # type: ignore[return-value]

    def action_back(self) -> None:
        self.dismiss(None)

    def on_screen_resume(self) -> None:
        self.cw.check_size()
