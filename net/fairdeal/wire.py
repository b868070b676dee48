"""What the private-deal protocol puts on the wire, as msgspec Structs with their size limits.

Points and scalars travel as raw 32-byte strings; msgspec checks lengths, counts
and ranges on decode (:func:`decode` also caps the message's total size first),
and :mod:`.deck` / :mod:`.verify` check that every point is a valid group element
before using it. The session wraps these in its own tagged messages; nothing here
knows about sockets.
"""

from __future__ import annotations

from typing import Annotated, Final, TypeVar

import msgspec

MAX_SEATS: Final = 8
MAX_CARDS: Final = 256
"""A deck never has more cards (the bundled games' largest has fewer than 100)."""
MAX_PARTS: Final = 2
MAX_PASSES: Final = 64
"""Passes one seat may reveal at the end (every deck, every reshuffle)."""
MAX_MESSAGE: Final = 256 * 1024
"""No message of this protocol is bigger (a 256-card, 2-part deck is 33 KiB)."""

Bytes32 = Annotated[bytes, msgspec.Meta(min_length=32, max_length=32)]
Seat = Annotated[int, msgspec.Meta(ge=0, lt=MAX_SEATS)]
Position = Annotated[int, msgspec.Meta(ge=0, lt=MAX_CARDS)]
Part = Annotated[int, msgspec.Meta(ge=0, lt=MAX_PARTS)]
DeckId = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class Proof(msgspec.Struct, frozen=True, array_like=True):
    """A Chaum–Pedersen proof (challenge, response): 64 bytes."""

    c: Bytes32
    z: Bytes32


class Ct(msgspec.Struct, frozen=True, array_like=True):
    """One ElGamal ciphertext ``(c1, c2) = (r·G, M + r·X)`` under the table key X."""

    c1: Bytes32
    c2: Bytes32


Card = Annotated[tuple[Ct, ...], msgspec.Meta(min_length=1, max_length=MAX_PARTS)]
"""A card's parts, kept together through every shuffle."""


class KeyShare(msgspec.Struct, frozen=True, array_like=True):
    """A seat's public key ``X_j = x_j·G`` and its proof of knowing ``x_j`` (no rogue keys)."""

    seat: Seat
    key: Bytes32
    proof: Proof


class ShuffledDeck(msgspec.Struct, frozen=True, array_like=True):
    """A seat's shuffle pass over a deck: the whole deck, permuted and re-randomized."""

    deck: DeckId
    seat: Seat
    cards: Annotated[tuple[Card, ...], msgspec.Meta(min_length=1, max_length=MAX_CARDS)]


class Strip(msgspec.Struct, frozen=True, array_like=True):
    """Seat's layer ``D = x_j·c1`` of one part of one card, with its proof (bound to the context)."""

    deck: DeckId
    position: Position
    part: Part
    seat: Seat
    share: Bytes32
    proof: Proof


class Handover(msgspec.Struct, frozen=True, array_like=True):
    """A card's holder re-randomizes it (same card, proved) so it can be opened to another seat alone."""

    deck: DeckId
    position: Position
    part: Part
    seat: Seat
    ct: Ct
    proof: Proof


class Named(msgspec.Struct, frozen=True, array_like=True):
    """A namer's word after a player's action: the slot it opens to everyone, with its own strip.

    The strip is absent when the value is open to everyone already (opened by an
    earlier word, then named again): naming the slot is then enough. A slot
    opened to one other seat (a card passed on, see ``SlotMap.receiver``) carries the
    namer's `handover` of the card instead: the seats but the receiver then strip it.
    """

    seat: int
    slot: tuple[str | int, ...]
    strip: Strip | None = None
    handover: Handover | None = None


class Word(msgspec.Struct, frozen=True, array_like=True):
    """Everything one namer names for one action (possibly nothing: the others still wait for it)."""

    seat: int
    ply: int
    named: tuple[Named, ...] = ()


class PassSecrets(msgspec.Struct, frozen=True, array_like=True):
    """What one shuffle pass used, revealed at the end: ``out[i] = rerandomize(in[perm[i]], rerand[i])``."""

    deck: DeckId
    perm: Annotated[tuple[Annotated[int, msgspec.Meta(ge=0, lt=MAX_CARDS)], ...], msgspec.Meta(max_length=MAX_CARDS)]
    rerand: Annotated[
        tuple[Annotated[tuple[Bytes32, ...], msgspec.Meta(max_length=MAX_PARTS)], ...],
        msgspec.Meta(max_length=MAX_CARDS),
    ]


class KeyReveal(msgspec.Struct, frozen=True, array_like=True):
    """At the end: a seat's secret key and the secrets of every pass it made, in the order it made them."""

    seat: Seat
    secret: Bytes32
    passes: Annotated[tuple[PassSecrets, ...], msgspec.Meta(max_length=MAX_PASSES)]


T = TypeVar("T", KeyShare, ShuffledDeck, Strip, Handover, KeyReveal)

_decoders: Final = {
    t: msgspec.msgpack.Decoder(t) for t in (KeyShare, ShuffledDeck, Strip, Handover, KeyReveal, PassSecrets)
}
_encoder: Final = msgspec.msgpack.Encoder()


class WireError(ValueError):
    """Bytes that are not a well-formed message of this protocol."""


def encode(msg: msgspec.Struct) -> bytes:
    return _encoder.encode(msg)


def decode(kind: type[T], data: bytes) -> T:
    """`data` as a `kind`, refusing anything oversized or malformed with :class:`WireError` (never a crash)."""
    if len(data) > MAX_MESSAGE:
        raise WireError(f"a {kind.__name__} of {len(data)} bytes (the limit is {MAX_MESSAGE})")
    try:
        out = _decoders[kind].decode(data)
    except msgspec.DecodeError as e:
        raise WireError(f"malformed {kind.__name__}: {e}") from None
    assert isinstance(out, kind)
    return out
