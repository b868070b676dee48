"""The one place a table screen runs a game's own code and survives its failure.

A game's words, board and log hooks are courtesies to the player: a label that
fails to word a new action must not take a legal choice off the list, nor a
standings line stop the game. So the table screen calls them through a
:class:`HookGuard`, which on an exception logs it (logger ``coldwater.tui``,
with the traceback) and gives the screen's fallback. Under tests the app is
made with ``strict=True`` and the guard raises instead, so a wording bug fails
the test that meets it rather than showing as ``str(action)`` for ever.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import ParamSpec, TypeVar

log = logging.getLogger("coldwater.tui")

P = ParamSpec("P")
T = TypeVar("T")


class HookError(RuntimeError):
    """A game's hook failed while the app runs strict (tests): the hook and the game in the message,
    the hook's own exception as the cause."""


class HookGuard:
    """Runs a game's hooks for one table screen: log and fall back, or (strict) raise."""

    def __init__(self, game: str, *, strict: bool | Callable[[], bool]) -> None:
        self.game = game
        self._strict = strict
        self.failures = 0
        """How many hooks failed and fell back (a player's session keeps going; the log has each)."""

    @property
    def strict(self) -> bool:
        """Raise instead of falling back (asked when a hook fails: a screen's app is known only then)."""
        return self._strict() if callable(self._strict) else self._strict

    def call(self, fallback: T, hook: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """`hook(*args, **kwargs)`, or `fallback` if it raises (see :meth:`failed`)."""
        try:
            return hook(*args, **kwargs)
        except Exception as e:
            self.failed(getattr(hook, "__qualname__", repr(hook)), e)
            return fallback

    def either(self, hook: Callable[P, T], fallback: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """`hook(...)`, or `fallback(...)` with the same arguments if it raises (a fallback worth
        computing only when needed, such as a plainer label)."""
        try:
            return hook(*args, **kwargs)
        except Exception as e:
            self.failed(getattr(hook, "__qualname__", repr(hook)), e)
        return fallback(*args, **kwargs)

    def failed(self, what: str, error: Exception) -> None:
        """Report that `what` failed with `error`: logged; raised as :class:`HookError` when strict."""
        self.failures += 1
        log.error("%s table: %s failed; the screen goes on with its fallback", self.game, what, exc_info=error)
        if self.strict:
            raise HookError(f"{self.game} table: {what} failed: {error!r}") from error
