"""The table's shared record: what one side of a LAN table has agreed with the others, as one typed value.

The host and every seat keep one :class:`TableRecord` (``TableHost.record``,
``TablePeer.record``): the seed round's commitments and reveals and the joint seed
they make, the key of every seat whose moves are signed, the public steps in ply
order, this process's beacon chain (and at a fair table each bot seat's it runs),
and the book of every seat's chain as applied. The phases of one side read and
extend this one value; nothing else about the table is theirs to share.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import beacon
from .. import messages as m


@dataclass
class TableRecord:
    """One side's copy of what the table agreed (see the module text)."""

    joint: bytes = b""
    """The joint seed the seed round made (empty before it)."""
    commits: dict[int, bytes] = field(default_factory=dict)
    """Every seat's seed-round commitment, as published."""
    reveals: dict[int, bytes] = field(default_factory=dict)
    """Every seat's seed-round reveal (its beacon chain's tip rides in it)."""
    seat_keys: dict[int, bytes] = field(default_factory=dict)
    """Seat → identity key of every seat whose moves are signed, fixed when the game starts."""
    steps: list[m.Step] = field(default_factory=list)
    """The public record in ply order, as this side applied it."""
    chain: beacon.Chain | None = None
    """This process's own beacon chain (its contribution to every public draw)."""
    bot_chains: dict[int, beacon.Chain] = field(default_factory=dict)
    """At a fair table: each bot seat's chain, committed by the host for it."""
    book: beacon.Book = field(default_factory=lambda: beacon.Book({}))
    """Every seat's chain tip and latest link, as applied."""
