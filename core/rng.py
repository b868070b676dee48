"""The one generator of game randomness: SHA-256 in counter mode.

Python's `random` module is not specified across versions, so peers on different
machines could disagree. This generator is defined by its bytes alone: block *i*
is ``SHA-256(key || i as 8 little-endian bytes)``, and integers are drawn from
those bytes by rejection sampling, so every platform gets the same sequence.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_DOMAIN = b"coldwater-rng-v1\x00"


def seed_bytes(seed: int | str | bytes) -> bytes:
    """Normalise a seed given as an int, text or bytes to bytes, unambiguously."""
    if isinstance(seed, bytes):
        return b"b" + seed
    if isinstance(seed, bool):  # bool is an int; refuse the ambiguity
        raise TypeError("a seed may not be a bool")
    if isinstance(seed, int):
        return b"i" + str(seed).encode()
    if isinstance(seed, str):
        return b"s" + seed.encode()
    raise TypeError(f"a seed must be int, str or bytes, not {type(seed).__name__}")


class Rng:
    """Deterministic stream of random integers from a seed.

    ``Rng(seed).fork(label)`` gives an independent stream for a named purpose,
    so one chance event never shifts the draws of another.
    """

    __slots__ = ("_buf", "_counter", "_key", "_pos")

    def __init__(self, seed: int | str | bytes) -> None:
        self._key = hashlib.sha256(_DOMAIN + seed_bytes(seed)).digest()
        self._counter = 0
        self._buf = b""
        self._pos = 0

    def fork(self, label: int | str | bytes) -> Rng:
        """An independent generator keyed by this one's key and `label`."""
        child = Rng.__new__(Rng)
        child._key = hashlib.sha256(self._key + b"/fork/" + seed_bytes(label)).digest()
        child._counter = 0
        child._buf = b""
        child._pos = 0
        return child

    def _take(self, n: int) -> bytes:
        out = bytearray()
        while n > 0:
            if self._pos >= len(self._buf):
                self._buf = hashlib.sha256(self._key + self._counter.to_bytes(8, "little")).digest()
                self._counter += 1
                self._pos = 0
            chunk = self._buf[self._pos : self._pos + n]
            self._pos += len(chunk)
            n -= len(chunk)
            out += chunk
        return bytes(out)

    def bits(self, k: int) -> int:
        """A uniform integer in ``[0, 2**k)``."""
        if k <= 0:
            return 0
        nbytes = (k + 7) // 8
        pos = self._pos
        end = pos + nbytes
        if end <= len(self._buf):  # the usual case, as _take would read it, without its loop
            self._pos = end
            value = int.from_bytes(self._buf[pos:end], "little")
        else:
            value = int.from_bytes(self._take(nbytes), "little")
        return value >> (nbytes * 8 - k)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        k = (n - 1).bit_length()
        while True:
            v = self.bits(k)
            if v < n:
                return v

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]``."""
        return lo + self.below(hi - lo + 1)

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise ValueError("choice() from an empty sequence")
        return seq[self.below(len(seq))]

    def weighted(self, weights: Sequence[int]) -> int:
        """An index drawn with probability proportional to integer `weights`."""
        total = sum(weights)
        if total <= 0 or min(weights) < 0:
            raise ValueError("weights must be non-negative with a positive sum")
        r = self.below(total)
        for i, w in enumerate(weights):
            if r < w:
                return i
            r -= w
        raise AssertionError("unreachable")

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        pool = list(seq)
        if k > len(pool):
            raise ValueError("sample larger than population")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
