"""Chaum–Pedersen proofs that two points share one discrete log, non-interactive by Fiat–Shamir.

``prove(ctx, x, g1, g2)`` shows ``h1 = x·g1`` and ``h2 = x·g2`` for the same secret
``x`` without revealing it. The challenge hashes a domain tag, the caller's
*context* (the table's joint seed, deck, position, part, seat and purpose: see
:func:`context`) and all six points, so a proof made for one card, seat or table
checks nowhere else. With ``g1 = g2 = G`` it is a Schnorr proof of knowing ``x``.

Prover: random ``w``; ``t1 = w·g1``, ``t2 = w·g2``; ``c = H(ctx, g1, h1, g2, h2, t1, t2)``;
``z = w − c·x``. Verifier: ``t1 = z·g1 + c·h1``, ``t2 = z·g2 + c·h2``, same ``c``.
"""

from __future__ import annotations

from .group import GroupError, Point, Scalar
from .wire import Proof

_DOMAIN = b"cw-dleq1"


def context(purpose: str, joint: bytes, deck: str = "", position: int = -1, part: int = -1, seat: int = -1) -> bytes:
    """The bytes a proof is bound to: what it is for, at which table, for which card and seat."""
    return b"\x00".join(
        (
            purpose.encode(),
            joint,
            deck.encode(),
            position.to_bytes(4, "big", signed=True),
            part.to_bytes(2, "big", signed=True),
            seat.to_bytes(2, "big", signed=True),
        )
    )


def _challenge(ctx: bytes, g1: Point, h1: Point, g2: Point, h2: Point, t1: Point, t2: Point) -> Scalar:
    return Scalar.from_hash(_DOMAIN, ctx, g1.raw, h1.raw, g2.raw, h2.raw, t1.raw, t2.raw)


def prove(ctx: bytes, x: Scalar, g1: Point, g2: Point, h1: Point | None = None, h2: Point | None = None) -> Proof:
    """A proof that ``h1 = x·g1`` and ``h2 = x·g2`` share the log ``x`` (pass them if already computed)."""
    h1 = g1 * x if h1 is None else h1
    h2 = g2 * x if h2 is None else h2
    while True:
        w = Scalar.random()
        c = _challenge(ctx, g1, h1, g2, h2, g1 * w, g2 * w)
        z = w - c * x
        # A zero c or z (probability ~2^-251) could not be checked with libsodium's
        # multiplication, which refuses a zero scalar; the verifier refuses them, so retry.
        if not c.is_zero and not z.is_zero:
            return Proof(c.raw, z.raw)


def verify(ctx: bytes, g1: Point, h1: Point, g2: Point, h2: Point, proof: Proof) -> bool:
    """True iff `proof` shows ``log_g1 h1 = log_g2 h2`` in context `ctx`; never raises on bad input."""
    try:
        c = Scalar.decode(proof.c, "proof challenge")
        z = Scalar.decode(proof.z, "proof response")
        t1 = g1 * z + h1 * c
        t2 = g2 * z + h2 * c
    except GroupError:
        return False
    return _challenge(ctx, g1, h1, g2, h2, t1, t2) == c
