"""Public randomness with no dealer: every seat's hash chain, one link per public draw.

Pure (no I/O, no clock): the session carries the links, this module makes and
checks them and turns them into outcomes. The protocol is written down in
docs/fairplay.md, "Public randomness: hash-chain beacons".

**Chains.** A seat picks a random end value ``x[N]`` and hashes it down to
``x[0]``, the *tip*: ``x[i-1] = H(seat, i, x[i])``. The tip goes into the seat's
seed contribution, so it is fixed (and checked against the seat's commitment)
before play. The link of the chance node at ply ``p`` is ``x[p+1]``; anyone who
holds the seat's tip, or any earlier link of it, checks it by hashing it down.
Nobody can compute a link before its seat reveals it (that would invert SHA-256),
and a seat cannot reveal a link other than the one its chain fixed.

**Indexing by ply.** Links are indexed by the ply of the chance node, not by a
count of public draws: every peer knows the ply from its own view, even after a
resync or a restart, so nobody has to agree on how many public draws came
before. A ply that was not a public draw simply skips its link (a check hashes
across the gap). Hence the chain length :data:`CHAIN_LENGTH` (8,192) bounds the
plies of a game rather than its draws: the longest bundled game (four seats)
plays about 1,300 plies. Past it the draw is the dealer's again (every peer and the
audit apply the same rule).

**Cost.** Making a chain is :data:`CHAIN_LENGTH` hashes (about 30 ms, once per
game). A :class:`Chain` keeps the end value and one checkpoint every
:data:`STRIDE` links (65 values with the end), and the segment it is revealing
from (:data:`STRIDE` values): 193 values of 16 bytes (a few KB with Python's
overhead, against 128 KB for the whole chain), and one hash per link on average. Checking a link
costs one hash per ply since the seat's last link. Links are 16 bytes
(128-bit preimage resistance is far beyond what a game at a table needs, and
every public draw carries one per seat).

**Outcomes.** The outcome at ply ``p`` is ``sample_chance`` of the public view
with the core's generator keyed by ``H("cw-beacon1", joint seed, p, every
contributing seat's link sorted by seat)``. Since it needs every link, nobody —
the host included — knows the draw before the last link is in; one honest seat
makes it unpredictable.

**Which draws.** One decision, in one place: a chance node is a *public draw*
(:func:`is_public_draw`) when the game's declared plan (``Game.dealing``, core/dealing.py,
through ``fairdeal.mapping.plan``) calls it a ``Beacon``. The plan
reads only what every view shows, so the host, the audit and every peer decide alike
from what each holds, and a peer sends its link exactly when one is due
(:func:`link_due`, the same test): never at a deck draw. Others (sealed values, and
draws from a deck whose remaining cards are partly hidden) are the dealer's. The
mapping's beacon draws are exactly those that hide nothing (:func:`hides_nothing`:
no outcome sealed, the public view lists the full state's outcomes and weights),
checked node by node over random games (tests/net/test_beacon.py). A game that
declares no plan (the tests' toy) is decided by :func:`hides_nothing` on the
full state, and its peers send a link wherever their public view lists outcomes.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from typing import Any, TypeVar

from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, State

A = TypeVar("A", bound=Action)

LINK_BYTES = 16
CHAIN_LENGTH = 8192
"""Links per chain: one per ply (see the module text)."""
STRIDE = 128
"""A checkpoint every this many links."""
TIP_BYTES = LINK_BYTES


class BeaconError(Exception):
    """A link that does not check; ``seat`` is whose it claims to be."""

    def __init__(self, reason: str, seat: int) -> None:
        super().__init__(reason)
        self.seat = seat


def _down(seat: int, index: int, value: bytes) -> bytes:
    """x[index-1] from x[index] (domain, seat and index in the hash: no link serves another seat or place)."""
    h = hashlib.sha256(b"cw-chain1\x00" + seat.to_bytes(2, "big", signed=True) + index.to_bytes(4, "big") + value)
    return h.digest()[:LINK_BYTES]


def index_of(ply: int) -> int:
    """The chain index of the chance node at `ply`."""
    return ply + 1


class Chain:
    """One seat's hash chain: its secret end value, checkpoints, and the segment in use."""

    def __init__(self, seat: int, end: bytes | None = None, length: int = CHAIN_LENGTH) -> None:
        if end is not None and len(end) != LINK_BYTES:
            raise ValueError(f"a chain's end value is {LINK_BYTES} bytes")
        self.seat = seat
        self.end = end if end is not None else os.urandom(LINK_BYTES)
        self.length = length
        self._marks: dict[int, bytes] = {length: self.end}
        x = self.end
        for i in range(length, 0, -1):
            x = _down(seat, i, x)
            if (i - 1) % STRIDE == 0:
                self._marks[i - 1] = x
        self.tip = x
        self._seg_top = -1
        self._seg: list[bytes] = []

    def link(self, index: int) -> bytes:
        """x[index] for 1 ≤ index ≤ length (ValueError past the end)."""
        if not 1 <= index <= self.length:
            raise ValueError(f"link {index} is outside this chain (1..{self.length})")
        top = min(-(-index // STRIDE) * STRIDE, self.length)
        if top != self._seg_top:
            # The segment (top - STRIDE, top] from the checkpoint at its top: one hash per link.
            vals = [self._marks[top]]
            for i in range(top, max(top - STRIDE, 0) + 1, -1):
                vals.append(_down(self.seat, i, vals[-1]))
            self._seg_top, self._seg = top, vals
        return self._seg[top - index]


def check_link(seat: int, index: int, link: bytes, known_index: int, known: bytes) -> bool:
    """Whether `link` is x[index] of the chain whose x[known_index] is `known` (known_index < index)."""
    if len(link) != LINK_BYTES or not known_index < index <= CHAIN_LENGTH:
        return False
    x = link
    for i in range(index, known_index, -1):
        x = _down(seat, i, x)
    return x == known


class Book:
    """What every peer knows of every seat's chain: its tip, then its latest revealed link."""

    def __init__(self, tips: Mapping[int, bytes]) -> None:
        self.last: dict[int, tuple[int, bytes]] = {s: (0, t) for s, t in tips.items() if len(t) == TIP_BYTES}

    def why_not(self, seat: int, ply: int, link: bytes) -> str | None:
        """Why `link` is not `seat`'s link for the chance node at `ply` (None: it is)."""
        if seat not in self.last:
            return f"seat {seat + 1} has no committed chain at this table"
        j, known = self.last[seat]
        i = index_of(ply)
        if i <= j:
            return f"a link for ply {ply}, which seat {seat + 1} already passed (its last link is for ply {j - 1})"
        if len(link) != LINK_BYTES:
            return f"seat {seat + 1}'s link is {len(link)} bytes, not {LINK_BYTES}"
        if link == known and j > 0:
            return f"seat {seat + 1} replayed its link of ply {j - 1} for ply {ply}"
        if not check_link(seat, i, link, j, known):
            return f"seat {seat + 1}'s link for ply {ply} does not hash onto its committed chain"
        return None

    def check(self, ply: int, links: Mapping[int, bytes]) -> str | None:
        """Why the links of one draw are not all good (None: they are). At least one link is needed."""
        if not links:
            return "a public draw with no link at all (the host alone could have chosen it)"
        for seat in sorted(links):
            why = self.why_not(seat, ply, links[seat])
            if why is not None:
                return why
        return None

    def accept(self, ply: int, links: Mapping[int, bytes]) -> None:
        """Record one draw's links (BeaconError when one does not check)."""
        for seat in sorted(links):
            why = self.why_not(seat, ply, links[seat])
            if why is not None:
                raise BeaconError(why, seat)
        for seat, link in links.items():
            self.last[seat] = (index_of(ply), link)

    def copy(self) -> Book:
        b = Book({})
        b.last = dict(self.last)
        return b


def draw_key(joint: bytes, ply: int, links: Mapping[int, bytes]) -> bytes:
    h = hashlib.sha256(b"cw-beacon1\x00" + joint + ply.to_bytes(8, "big"))
    for seat in sorted(links):
        link = links[seat]
        h.update(seat.to_bytes(2, "big", signed=True) + len(link).to_bytes(1, "big") + link)
    return h.digest()


def draw(state: State[A, Any], joint: bytes, links: Mapping[int, bytes]) -> A:
    """The outcome of the public draw pending in `state` (a full state or any view of it)."""
    return state.view(None).sample_chance(Rng(draw_key(joint, state.ply, links)))


def _planned(state: State[Any, Any]) -> bool | None:
    """Whether the game's declared plan calls the pending chance node a beacon draw (None: it declares none)."""
    # Imported here: the mapping's package imports fairplay, which imports this module.
    from .fairdeal import mapping

    dealing = mapping.dealing(state.GAME)
    if dealing is None:
        return None
    return isinstance(dealing.plan(state), mapping.Beacon)


def link_due(view: State[Any, Any]) -> bool:
    """Whether a seat sends its link now: a public draw, as its own view tells (see the module text)."""
    if view.current != CHANCE or index_of(view.ply) > CHAIN_LENGTH:
        return False
    planned = _planned(view)
    if planned is not None:
        return planned
    return bool(view.view(None).chance_outcomes())  # a game with no mapping: wherever the public view can draw


def is_public_draw(state: State[Any, Any]) -> bool:
    """Whether the chance node pending in `state` is drawn by the beacon (see the module text)."""
    if state.current != CHANCE or index_of(state.ply) > CHAIN_LENGTH:
        return False
    planned = _planned(state)
    if planned is not None:
        return planned
    return hides_nothing(state)


def hides_nothing(state: State[Any, Any]) -> bool:
    """Whether the chance node pending in the full `state` could be drawn in public: no outcome sealed,
    and the public view lists the full state's outcomes and weights (so every peer can draw it)."""
    if state.current != CHANCE:
        return False
    full = state.chance_outcomes()
    if len(full) < 1 or state.view(None).chance_outcomes() != full:
        return False
    if len(full) == 1:
        return True  # one outcome hides nothing
    seen: set[str] = set()
    for outcome, _ in full:
        after = state.clone()
        after.apply(outcome)
        d = after.view(None).digest()
        if d in seen:
            return False  # two outcomes the public cannot tell apart: a sealed value
        seen.add(d)
    return True
