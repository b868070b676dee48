"""Game records: options, content hash and every action and chance outcome.

A record is JSON so that a bug report can be read and edited by a person.
Each entry keeps the seat that acted, the action's notation and the digest of
the position after it, so replaying proves the record was not altered: the
first entry whose action is not legal, or whose digest differs, is named.
Reading and writing record files is the net layer's (``coldwater.net.play.records``):
core does no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import msgspec

from coldwater import __version__

from .clock import START, Clock, advance
from .errors import IllegalAction, NotationError, RecordError
from .notation import Action
from .state import State

if TYPE_CHECKING:
    from .state import Game

FORMAT = 1


class Entry(msgspec.Struct, array_like=True, frozen=True):
    seat: int
    action: str
    digest: str
    clock: Clock | None = None
    """Round and turn of the position after it; None in records written before clocks
    were kept (resuming such a save fills them in)."""


class GameRecord(msgspec.Struct, kw_only=True):
    format: int = FORMAT
    game: str
    players: int
    options: dict[str, Any] = {}
    """The game's options Struct as JSON builtins (each game has its own fields)."""
    content_hash: str
    seed: str | None = None
    start_digest: str
    entries: list[Entry] = []
    meta: dict[str, str] = {}
    """Free text for people: seat names, date, table name, and ``app``, the build that began it
    (``coldwater 0.1.0``), so a bug report's record says which version made it."""


_enc = msgspec.json.Encoder()


def start(
    game: Game[Any, Any], state: State[Any, Any], options: object = None, meta: dict[str, str] | None = None
) -> GameRecord:
    """A record for a game that begins at `state` (normally fresh from game.new)."""
    opts = msgspec.to_builtins(game.make_options(options))
    return GameRecord(
        game=game.name,
        players=state.players,
        options=opts,
        content_hash=game.content_hash,
        seed=state.seed,
        start_digest=state.digest(),
        meta={"app": f"coldwater {__version__}", **(meta or {})},
    )


def append(record: GameRecord, seat: int, action: Action, after: State[Any, Any]) -> None:
    prev = record.entries[-1].clock if record.entries else START
    clock = advance(prev, after) if prev is not None else None
    record.entries.append(Entry(seat, str(action), after.digest(), clock))


def dumps(record: GameRecord) -> bytes:
    return msgspec.json.format(_enc.encode(record), indent=1)


def loads(raw: bytes | str) -> GameRecord:
    try:
        rec = msgspec.json.decode(raw, type=GameRecord)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise RecordError(f"not a coldwater record: {e}") from None
    if rec.format != FORMAT:
        raise RecordError(f"record format {rec.format} is not supported (this version reads {FORMAT})")
    return rec


def initial_state(record: GameRecord, game: Game[Any, Any] | None = None) -> tuple[Game[Any, Any], State[Any, Any]]:
    """The game object and starting position a record describes, checked."""
    from . import games

    if game is None:
        try:
            game = games.get(record.game)
        except KeyError as e:
            raise RecordError(str(e.args[0])) from None
    elif game.name != record.game:
        raise RecordError(f"this record is for {record.game!r}, not {game.name!r}")
    if record.content_hash != game.content_hash:
        raise RecordError(
            f"the record was made with different {game.title} content "
            f"({record.content_hash[:12]}, this install has {game.content_hash[:12]})"
        )
    try:
        state = game.new(record.players, seed=record.seed, options=record.options)
    except ValueError as e:
        raise RecordError(f"bad setup: {e}") from None
    if state.digest() != record.start_digest:
        raise RecordError("the starting position does not match the record (start digest differs)")
    return game, state


def replay_iter(record: GameRecord, game: Game[Any, Any] | None = None) -> Iterator[tuple[int, Entry, State[Any, Any]]]:
    """Yield (index, entry, state after it), verifying each entry as it goes."""
    game, state = initial_state(record, game)
    for i, entry in enumerate(record.entries, start=1):
        where = f"entry {i} ({entry.action!r})"
        try:
            action = game.parse_action(entry.action)
        except NotationError as e:
            raise RecordError(f"{where}: {e}") from None
        if state.current != entry.seat:
            raise RecordError(f"{where}: seat {entry.seat} acted, but it was {state.current}'s turn")
        try:
            state.apply(action)
        except IllegalAction as e:
            raise RecordError(f"{where}: illegal: {e}") from None
        if state.digest() != entry.digest:
            raise RecordError(f"{where}: digest differs; the record was altered or made by a different engine")
        yield i, entry, state


def replay(record: GameRecord, game: Game[Any, Any] | None = None) -> State[Any, Any]:
    """The final position of a verified replay (RecordError names the first bad entry)."""
    _, last = initial_state(record, game)
    for _, _, state in replay_iter(record, game):
        last = state
    return last
