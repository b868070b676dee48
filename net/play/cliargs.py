"""Command-line values both CLIs read the same way: ``--option KEY=VALUE`` and ``--seats``.

``coldwater simulate`` (net/play/commands.py) and ``coldwater host`` (net/cli.py, and the
app's own LAN start) parse them here, so a typo gets the same clear message
everywhere. Errors are :class:`UsageError`; a CLI prints it and exits with 2,
the status argparse uses for a bad command line.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

SEAT_KINDS = ("open", "bot")
RESERVED = "reserved:"


class UsageError(ValueError):
    """A bad command-line value; the message is for a person, without the program name."""


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``["no_tags=true", "module=tribes"]`` → ``{"no_tags": True, "module": "tribes"}``.

    A value is read as JSON when it is JSON (numbers, true/false, null, lists),
    else kept as the text given. A later pair for the same key wins.
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep:
            raise UsageError(f"--option wants KEY=VALUE, got {pair!r}")
        if not key:
            raise UsageError(f"--option {pair!r} has no KEY before the '='")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def parse_seats(seats: str | None, players: int | None) -> list[str]:
    """The seats after the host's, from ``--seats open,bot,reserved:FP`` and ``--players``.

    With neither, two players (one open seat); with only ``--players``, every
    other seat is open; with only ``--seats``, as many players as it implies.
    """
    if players is not None and players < 1:
        raise UsageError(f"--players must be at least 1, got {players}")
    if seats is None or not seats.strip():
        n = players if players is not None else 2
        return ["open"] * (n - 1)
    others = [s.strip() for s in seats.split(",")]
    for s in others:
        if s in SEAT_KINDS:
            continue
        if s.startswith(RESERVED) and s[len(RESERVED) :].strip():
            continue
        raise UsageError(f"--seats: {s!r} is not a seat; each is open, bot or reserved:FINGERPRINT")
    if players is not None and len(others) != players - 1:
        raise UsageError(
            f"--seats lists {len(others)} seat{'s' if len(others) != 1 else ''} after yours; "
            f"{players} players need {players - 1}"
        )
    return others


def fail(e: UsageError) -> int:
    """Say what is wrong on stderr; the exit status for a bad command line."""
    print(f"coldwater: {e}", file=sys.stderr)
    return 2
