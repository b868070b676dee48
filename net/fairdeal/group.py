"""The Ed25519 prime-order group, typed: :class:`Point` and :class:`Scalar` over libsodium.

Every operation is one libsodium call through PyNaCl's bindings; nothing here
does curve arithmetic by hand. A point that came from outside this process goes
through :meth:`Point.decode` (canonical, on the curve, in the prime-order
subgroup, not of small order, so never the identity); points computed here from
valid points need no check. Secret scalars come from ``os.urandom`` only.
"""

from __future__ import annotations

import hashlib
import os
from typing import ClassVar, Final

from nacl import bindings as na
from nacl.exceptions import RuntimeError as SodiumError

POINT_BYTES: Final = na.crypto_core_ed25519_BYTES
SCALAR_BYTES: Final = na.crypto_core_ed25519_SCALARBYTES
_WIDE: Final = na.crypto_core_ed25519_NONREDUCEDSCALARBYTES
_IDENTITY: Final = b"\x01" + bytes(31)


class GroupError(ValueError):
    """A point or scalar that is not a valid element of the group (malformed input)."""


class Scalar:
    """An integer modulo the group order ℓ, kept as its 32-byte canonical little-endian encoding."""

    __slots__ = ("raw",)

    def __init__(self, raw: bytes) -> None:
        self.raw = raw

    @classmethod
    def decode(cls, data: bytes, what: str = "scalar") -> Scalar:
        """A received scalar: 32 bytes, canonical (< ℓ) and non-zero, else :class:`GroupError`."""
        if len(data) != SCALAR_BYTES:
            raise GroupError(f"{what}: {len(data)} bytes, a scalar has {SCALAR_BYTES}")
        if na.crypto_core_ed25519_scalar_reduce(data + bytes(_WIDE - SCALAR_BYTES)) != data:
            raise GroupError(f"{what}: not a canonical scalar (not below the group order)")
        if data == bytes(SCALAR_BYTES):
            raise GroupError(f"{what}: the zero scalar")
        return cls(data)

    @classmethod
    def random(cls) -> Scalar:
        """A uniform non-zero secret scalar (64 OS-random bytes reduced: bias below 2^-259)."""
        while True:
            s = na.crypto_core_ed25519_scalar_reduce(os.urandom(_WIDE))
            if s != bytes(SCALAR_BYTES):
                return cls(s)

    @classmethod
    def from_hash(cls, *parts: bytes) -> Scalar:
        """SHA-512 of length-prefixed `parts`, reduced (Fiat–Shamir challenges); may be zero."""
        return cls(na.crypto_core_ed25519_scalar_reduce(_hash("sha512", parts)))

    @property
    def is_zero(self) -> bool:
        return self.raw == bytes(SCALAR_BYTES)

    def __add__(self, other: Scalar) -> Scalar:
        return Scalar(na.crypto_core_ed25519_scalar_add(self.raw, other.raw))

    def __sub__(self, other: Scalar) -> Scalar:
        return Scalar(na.crypto_core_ed25519_scalar_sub(self.raw, other.raw))

    def __mul__(self, other: Scalar) -> Scalar:
        return Scalar(na.crypto_core_ed25519_scalar_mul(self.raw, other.raw))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scalar) and self.raw == other.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return "Scalar(…)"  # secrets stay out of logs and tracebacks


class Point:
    """A group element, kept as its 32-byte encoding (hashable: a dict key for card lookup)."""

    __slots__ = ("raw",)
    BASE: ClassVar[Point]

    def __init__(self, raw: bytes) -> None:
        self.raw = raw

    @classmethod
    def decode(cls, data: bytes, what: str = "point") -> Point:
        """A received point, refused unless it is a valid, non-small-order subgroup element."""
        if len(data) != POINT_BYTES:
            raise GroupError(f"{what}: {len(data)} bytes, a point has {POINT_BYTES}")
        if data == _IDENTITY:
            raise GroupError(f"{what}: the identity point")
        if not na.crypto_core_ed25519_is_valid_point(data):
            raise GroupError(f"{what}: not a valid point of the prime-order group (off the curve, small order)")
        return cls(data)

    @classmethod
    def from_uniform(cls, data: bytes) -> Point:
        """Hash-to-group: 32 uniform bytes through Elligator 2 into the prime-order subgroup."""
        if len(data) != 32:
            raise GroupError("from_uniform needs 32 bytes")
        p = cls(na.crypto_core_ed25519_from_uniform(data))
        if p.is_identity:
            raise GroupError("hash-to-group gave the identity")  # probability ~2^-252
        return p

    @property
    def is_identity(self) -> bool:
        return self.raw == _IDENTITY

    def __mul__(self, s: Scalar) -> Point:
        """``s·P``; libsodium refuses (and so do we) a zero product or a small-order input."""
        try:
            if self.raw == _BASE_RAW:
                return Point(na.crypto_scalarmult_ed25519_base_noclamp(s.raw))  # ~5x faster
            return Point(na.crypto_scalarmult_ed25519_noclamp(s.raw, self.raw))
        except SodiumError:
            raise GroupError("scalar multiplication gave the identity (zero scalar or small-order point)") from None

    def __add__(self, other: Point) -> Point:
        return Point(na.crypto_core_ed25519_add(self.raw, other.raw))

    def __sub__(self, other: Point) -> Point:
        return Point(na.crypto_core_ed25519_sub(self.raw, other.raw))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Point) and self.raw == other.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return f"Point({self.raw.hex()[:16]}…)"


_BASE_RAW: Final = na.crypto_scalarmult_ed25519_base_noclamp(b"\x01" + bytes(31))
Point.BASE = Point(_BASE_RAW)


def _hash(name: str, parts: tuple[bytes, ...]) -> bytes:
    h = hashlib.new(name)
    # Length prefixes make the encoding injective: ("ab", "c") never hashes like ("a", "bc").
    for p in parts:
        h.update(len(p).to_bytes(4, "big") + p)
    return h.digest()


def hash_to_point(*parts: bytes) -> Point:
    """A point nobody knows the discrete log of, from length-prefixed `parts` (SHA-256, Elligator 2)."""
    return Point.from_uniform(_hash("sha256", parts))
