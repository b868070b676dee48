"""Length-prefixed frames: a 4-byte big-endian length, then that many bytes.

Every byte that crosses a socket or a pipe goes through here: the LAN transport, the
bots' worker process (a blocking pipe on its side, `read_frame_blocking`) and the
control socket of `coldwater serve`. The cap is checked on the
length prefix *before* reading the body, so a peer cannot make us buffer an
arbitrarily large frame. A stream that breaks mid-frame or announces an
oversized frame cannot be resynchronised, so both end the connection cleanly.
"""

from __future__ import annotations

import asyncio
import struct
from typing import IO

MAX_FRAME = 1 << 20
"""1 MiB: far above any real message (a whole position is a few KiB)."""

_LEN = struct.Struct(">I")
HEADER = _LEN.size


class FrameError(Exception):
    """The byte stream is broken; the connection must close. The text says why."""


class FrameTooLarge(FrameError):
    pass


class FrameTruncated(FrameError):
    pass


def encode_frame(payload: bytes, max_size: int = MAX_FRAME) -> bytes:
    if len(payload) > max_size:
        raise FrameTooLarge(f"frame of {len(payload)} bytes exceeds the {max_size}-byte cap")
    return _LEN.pack(len(payload)) + payload


async def read_frame(reader: asyncio.StreamReader, max_size: int = MAX_FRAME) -> bytes | None:
    """The next frame's payload, or None at a clean end of stream (between frames)."""
    try:
        head = await reader.readexactly(HEADER)
    except asyncio.IncompleteReadError as e:
        if not e.partial:
            return None
        raise FrameTruncated(f"stream ended inside a frame header ({len(e.partial)} of {HEADER} bytes)") from None
    (size,) = _LEN.unpack(head)
    if size > max_size:
        raise FrameTooLarge(f"peer announced a {size}-byte frame; the cap is {max_size}")
    try:
        return await reader.readexactly(size)
    except asyncio.IncompleteReadError as e:
        raise FrameTruncated(f"stream ended inside a frame ({len(e.partial)} of {size} bytes)") from None


def read_frame_blocking(f: IO[bytes], max_size: int = MAX_FRAME) -> bytes | None:
    """`read_frame` for a blocking file (a pipe): the payload, or None at a clean end of file."""
    head = f.read(HEADER)
    if not head:
        return None
    if len(head) < HEADER:
        raise FrameTruncated(f"stream ended inside a frame header ({len(head)} of {HEADER} bytes)")
    (size,) = _LEN.unpack(head)
    if size > max_size:
        raise FrameTooLarge(f"peer announced a {size}-byte frame; the cap is {max_size}")
    body = f.read(size)
    if len(body) < size:
        raise FrameTruncated(f"stream ended inside a frame ({len(body)} of {size} bytes)")
    return body


class FrameBuffer:
    """Incremental decoder for bytes that arrive in arbitrary pieces (tests, tools)."""

    def __init__(self, max_size: int = MAX_FRAME) -> None:
        self._buf = bytearray()
        self._max = max_size

    def feed(self, data: bytes) -> list[bytes]:
        self._buf += data
        out: list[bytes] = []
        while len(self._buf) >= HEADER:
            (size,) = _LEN.unpack_from(self._buf)
            if size > self._max:
                raise FrameTooLarge(f"peer announced a {size}-byte frame; the cap is {self._max}")
            if len(self._buf) < HEADER + size:
                break
            out.append(bytes(self._buf[HEADER : HEADER + size]))
            del self._buf[: HEADER + size]
        return out

    @property
    def pending(self) -> int:
        """Bytes held that do not yet make a whole frame (non-zero at EOF = truncated)."""
        return len(self._buf)
