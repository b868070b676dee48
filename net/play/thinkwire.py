"""What crosses the pipes between the app's :class:`~.thinker.Thinker` and its worker (thinkworker.py).

What crosses is data: the game's name and card data (path and content hash), the
bot's level and budget, the seat's view as its canonical MessagePack encoding with
its digest, and the Rng's seed and fork labels (:class:`RngPath`), so the worker
rebuilds the very bot, position and Rng and its choice is the one the bot would
have made in the app.

Framing on both pipes: a 4-byte big-endian length, then a MessagePack message
(see :data:`ToWorker` and :data:`FromWorker`), at most :data:`MAX_FRAME` bytes.
Both sides import this module, and neither the other's.
"""

from __future__ import annotations

from typing import IO

import msgspec

from coldwater.core.rng import Rng
from coldwater.core.search import SearchBot
from coldwater.net.play import framing

PROTOCOL = 4
"""Bumped when a message changes; a worker of another protocol is refused."""

MAX_FRAME = 16 << 20
"""Largest message either side accepts (a view is a few kilobytes)."""


class RngPath(msgspec.Struct, frozen=True, array_like=True):
    """An Rng as its seed and fork labels: ``Rng(seed).fork(l1).fork(l2)...``."""

    seed: str
    forks: tuple[int | str, ...] = ()

    def rng(self) -> Rng:
        r = Rng(self.seed)
        for label in self.forks:
            r = r.fork(label)
        return r


class SearchBudget(msgspec.Struct, frozen=True, kw_only=True):
    """A :class:`SearchBot`'s settings, as the table's bot has them (tests change them)."""

    iterations: int
    width: int
    horizon: int
    explore: float
    noise: float
    confidence: float
    expand_after: int
    max_seconds: float
    max_plies: int | None = None

    @classmethod
    def of(cls, bot: SearchBot) -> SearchBudget:
        return cls(
            iterations=bot.iterations,
            width=bot.width,
            horizon=bot.horizon,
            explore=bot.explore,
            noise=bot.noise,
            confidence=bot.confidence,
            expand_after=bot.expand_after,
            max_seconds=bot.max_seconds,
            max_plies=bot.max_plies,
        )

    def give(self, bot: SearchBot) -> None:
        bot.iterations = self.iterations
        bot.width = self.width
        bot.horizon = self.horizon
        bot.explore = self.explore
        bot.noise = self.noise
        bot.confidence = self.confidence
        bot.expand_after = self.expand_after
        bot.max_seconds = self.max_seconds
        bot.max_plies = self.max_plies


class Think(msgspec.Struct, tag="think", kw_only=True):
    """Choose a move for `bot` (a level in ``game.bots``) in the position `view`."""

    id: int
    game: str
    content: str | None
    """The person's own card data file the game was loaded with; None: the packaged data."""
    content_hash: str
    bot: str
    budget: SearchBudget | None
    ply: int
    view: bytes
    """``view.encode()``: the seat's view, canonical MessagePack."""
    digest: str
    """``view.digest()``: the worker checks it decoded the very same position."""
    rng: RngPath


class Review(msgspec.Struct, tag="review", kw_only=True):
    """Review `seat`'s decisions in a game record (``core.review``); answered by Progress
    after each decision, then Reviewed."""

    id: int
    game: str
    content: str | None
    content_hash: str
    record: bytes
    """``core.record.dumps(record)``: the worker replays and checks it itself."""
    seat: int
    depth: int = 1
    seed: str = "0"


class HintAsk(msgspec.Struct, tag="hint", kw_only=True):
    """The best few choices at one position (``core.review.hint``), from its seat's view
    encoded as for Think; answered by Hinted."""

    id: int
    game: str
    content: str | None
    content_hash: str
    ply: int
    view: bytes
    digest: str
    seed: str = "0"
    depth: int = 1
    """The hint's worlds times this (as a review's ``--depth``)."""
    include: str = ""
    """A choice to evaluate and list whatever its rank (notation; "" for none)."""


class Cancel(msgspec.Struct, tag="cancel"):
    """Stop request `id` at its next iteration (its table closed)."""

    id: int


class Hold(msgspec.Struct, tag="hold"):
    """A key is being handled: wait before the next iteration, until Go (or HOLD_AT_MOST)."""


class Go(msgspec.Struct, tag="go"):
    """The key's repaint is done: search on."""


HOLD_AT_MOST = 0.25
"""Seconds a Hold holds at most without its Go (a key whose repaint never reports back)."""


class Ready(msgspec.Struct, tag="ready"):
    protocol: int
    pid: int


class Chose(msgspec.Struct, tag="chose"):
    id: int
    action: str
    iterations: int
    seconds: float


class Progress(msgspec.Struct, tag="progress"):
    """`done` of `of` decisions of a Review are reviewed."""

    id: int
    done: int
    of: int


class Reviewed(msgspec.Struct, tag="reviewed"):
    id: int
    review: bytes
    """The ``core.review.SeatReview``, MessagePack."""


class Hinted(msgspec.Struct, tag="hinted"):
    id: int
    hint: bytes
    """The ``core.review.Hint``, MessagePack."""


class Stopped(msgspec.Struct, tag="stopped"):
    id: int


class Failed(msgspec.Struct, tag="failed"):
    id: int
    error: str


ToWorker = Think | Review | HintAsk | Cancel | Hold | Go
FromWorker = Ready | Chose | Progress | Reviewed | Hinted | Stopped | Failed

_encoder = msgspec.msgpack.Encoder()
_from_worker = msgspec.msgpack.Decoder(FromWorker)


def decode_from_worker(body: bytes) -> FromWorker:
    """One message the worker sent (its frame's body); msgspec.DecodeError if it is none."""
    return _from_worker.decode(body)


def frame(msg: msgspec.Struct) -> bytes:
    """`msg` as one frame for a pipe: its length, then its MessagePack."""
    return framing.encode_frame(_encoder.encode(msg), MAX_FRAME)


def read_frame(f: IO[bytes]) -> bytes | None:
    """One message body from a blocking pipe; None at end of file, or where the other
    end died mid-message (the same thing to the reader: nobody is left to answer)."""
    try:
        return framing.read_frame_blocking(f, MAX_FRAME)
    except framing.FrameTruncated:
        return None
