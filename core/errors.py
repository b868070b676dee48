"""Errors every engine raises; each carries a message meant for a person."""

from __future__ import annotations


class ColdwaterError(Exception):
    """Base of every error the core raises on purpose."""


class IllegalAction(ColdwaterError, ValueError):
    """An action that the rules do not allow now. The state is left unchanged."""


class NotationError(ColdwaterError, ValueError):
    """A piece of action notation that does not parse."""


class ContentError(ColdwaterError, ValueError):
    """Game content (cards, boards) that fails validation; names file, item and field."""


class RecordError(ColdwaterError, ValueError):
    """A game record that is corrupt, tampered with or from an incompatible version."""
