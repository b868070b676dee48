"""What the person's terminal can show, read from the environment once at start.

Three questions, answered the same way for a local ``coldwater`` and for an app
that ``coldwater serve`` starts for an SSH client (which passes the client's TERM,
COLORTERM and NO_COLOR on):

- may the app use colour at all (:func:`no_color`: the no-color.org convention, a
  non-empty NO_COLOR, or a terminal type known to be monochrome);
- does the terminal have fewer than 256 colours (:func:`low_colour`: then the ANSI
  theme, which uses the terminal's own palette, reads better than hex colours
  squeezed into 16);
- can it run a full-screen app at all (:func:`cannot_run`: a ``dumb`` terminal
  cannot move the cursor, so the app says so in one line instead of drawing garbage).
"""

from __future__ import annotations

from collections.abc import Mapping

MONOCHROME_TERMS: tuple[str, ...] = ("vt52", "vt100", "vt102", "vt220", "vt320", "vt420")
"""Terminal types of monochrome hardware terminals: they move the cursor and know bold
and reverse video, but not colour, so the app runs there as under NO_COLOR."""

UNUSABLE_TERMS: frozenset[str] = frozenset({"", "dumb", "unknown"})
"""TERM values that promise no cursor addressing (Emacs' shell buffer, a pipe)."""


def _term(env: Mapping[str, str]) -> str:
    return env.get("TERM", "").strip().lower()


def no_color(env: Mapping[str, str]) -> bool:
    """True when colour must not be used: NO_COLOR set to anything but the empty
    string (no-color.org), or a monochrome terminal type."""
    if env.get("NO_COLOR", ""):
        return True
    term = _term(env)
    return any(term == t or term.startswith(t + "-") for t in MONOCHROME_TERMS)


def low_colour(term: str | None, env: Mapping[str, str]) -> bool:
    """True when the terminal reports fewer than 256 colours (then the ANSI theme suits)."""
    if env.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return False
    return not term or ("256color" not in term and "direct" not in term)


def cannot_run(env: Mapping[str, str]) -> str | None:
    """A one-line reason the app cannot run in this terminal, or None when it can."""
    term = _term(env)
    if term in UNUSABLE_TERMS:
        shown = f"TERM={term}" if term else "TERM is not set"
        return (
            f"coldwater needs a terminal that can move the cursor ({shown}); "
            "run it in a terminal emulator, or set TERM (e.g. TERM=xterm)"
        )
    return None
