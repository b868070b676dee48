"""The end of a fair-dealer game that cannot go on: a forfeit, and the verdict the honest seats sign.

At a fair-dealer table no one can play a seat whose layer only its own process holds
(docs/fairplay.md, "Seats lost for good"). When a seat stalls past the clock, withholds
a share, is struck out, sends a message that fails its check, or is gone for good, the
host proposes a :class:`Forfeit`: the seats that forfeit, why, and the standings on the
public position at that ply, every forfeiting seat last. Each other seat checks it
against its own process (the same public position, and its own rounds waiting on the
named seats or its own check having failed on their message) and, if it agrees, signs
the same bytes back as its ``verdict``. The host relays each verdict, so every process
ends holding the same proposal and the honest seats' signatures over it: the result
of the table, which each shows and keeps. A seat that does not agree signs nothing; its
result records the host's claim and its own answer instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import msgspec

from coldwater.core.state import State

from .. import messages as m
from ..identity import verify
from .fairtable import fair_message

VERDICT_WAIT: Final = 8.0
"""Seconds the host waits for the other seats' verdicts once it has proposed a forfeit (a seat behind
by a few rounds takes them first, from the relay log it already holds)."""


class Forfeit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A proposed end of the game: `seats` forfeit at `ply` for `reason`; the standings on the public
    position then (`labels` and `totals` as the game scores it, `order` best first, forfeiters last)."""

    seats: list[int]
    reason: str
    ply: int
    labels: list[str]
    totals: list[int]
    order: list[int]


_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(Forfeit)


def propose(view: State[Any, Any], seats: Sequence[int], reason: str) -> Forfeit:
    """The forfeit of `seats` at this process's position: the standings on its public part."""
    public = view.view(None)
    sc = public.scores()
    totals = list(sc.totals)
    lost = sorted(set(seats))
    # Best first by points (ties kept in seat order); every forfeiting seat after every other.
    order = sorted(range(len(totals)), key=lambda s: (s in lost, -totals[s], s))
    return Forfeit(seats=lost, reason=reason[:500], ply=view.ply, labels=list(sc.labels), totals=totals, order=order)


def encode(f: Forfeit) -> bytes:
    return _enc.encode(f)


def decode(body: bytes) -> Forfeit | None:
    try:
        return _dec.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def disagreement(f: Forfeit, view: State[Any, Any], evidence: Sequence[int]) -> str | None:
    """Why this process cannot sign `f` (None: it can). `evidence`: the seats this process itself waits
    on, or whose own message failed its check here."""
    if f.ply != view.ply:
        return f"this seat is at ply {view.ply}, the forfeit is proposed at ply {f.ply}"
    mine = propose(view, f.seats, f.reason)
    if (mine.labels, mine.totals, mine.order) != (f.labels, f.totals, f.order):
        return "the standings proposed are not this seat's standings of the public position"
    if not set(f.seats) & set(evidence):
        seats = ", ".join(str(s + 1) for s in f.seats)
        return f"this seat waits on no message of seat(s) {seats} and holds no failed one"
    return None


def signed_by(f: Forfeit, verdicts: Sequence[m.Fair], joint: bytes, keys: dict[int, bytes]) -> list[int]:
    """The seats whose verdict is a genuine signature over `f` (each once, forfeiters never)."""
    body = encode(f)
    seats: set[int] = set()
    for v in verdicts:
        key = keys.get(v.seat)
        if key is None or v.seat in f.seats or v.body != body:
            continue
        if verify(key, v.sig, fair_message(joint, "verdict", v.ply, "", v.seat, v.body, v.digest)):
            seats.add(v.seat)
    return sorted(seats)


def standings_text(f: Forfeit, names: dict[int, str]) -> str:
    """'Ann 12, Bo 9, Cy (forfeits) 14' in the verdict's order."""
    parts = []
    for s in f.order:
        name = names.get(s) or f"Seat {s + 1}"
        mark = " (forfeits)" if s in f.seats else ""
        parts.append(f"{name}{mark} {f.totals[s]}")
    return ", ".join(parts)


def outcome(f: Forfeit) -> str:
    seats = ", ".join(str(s + 1) for s in f.seats)
    return f"seat {seats} forfeits at ply {f.ply}: {f.reason}"


def scores(f: Forfeit) -> dict[str, int]:
    """The standings as a Result's scores (the forfeiting seats keep their points but rank last)."""
    return dict(zip(f.labels, f.totals, strict=False))
