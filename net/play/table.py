"""A table runs one game: seats, chance, an event stream, autosave and resume.

Hotseat, solo against bots and LAN play are the same Table with different
seats. A seat is a person at this keyboard, a bot, or a remote peer. The table
owns the full state; people and bots only ever see ``state.view(seat)``.

After every action the record is saved atomically, so a crash or a quit loses
nothing; :func:`resume` replays the saved record, verifying every entry, and a
save that is corrupt or from another version is moved aside untouched and
reported, never loaded half-way.
"""

from __future__ import annotations

import asyncio
import enum
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec

from coldwater.core import games, record
from coldwater.core.clock import START, advance
from coldwater.core.errors import ContentError, IllegalAction, RecordError
from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.search import SearchBot
from coldwater.core.state import CHANCE, Bot, Game, State

from . import files, paths
from .emitter import Emitter
from .files import write_atomic
from .thinker import RngPath, Thinker, ThinkingStopped, timed

SAVE_FORMAT = 1


class SeatKind(enum.StrEnum):
    PERSON = "person"
    BOT = "bot"
    REMOTE = "remote"


class Seat(msgspec.Struct, frozen=True):
    kind: SeatKind
    name: str
    bot: str | None = None
    """The bot's name in ``game.bots`` when kind is BOT."""


class ContentRef(msgspec.Struct, frozen=True):
    """A person's own card data a game is played with (``game.with_content(files.read_content(path))``).

    The hash is kept beside the path so that a file edited since is noticed before a single
    move is replayed against it."""

    path: str
    hash: str


CONTENT_META = "content"
"""Record ``meta`` key holding the card data path, so a finished record can be replayed."""


class SaveFile(msgspec.Struct, kw_only=True):
    format: int = SAVE_FORMAT
    seats: list[Seat]
    record: record.GameRecord
    created: float
    updated: float
    content: ContentRef | None = None
    """None: the packaged content (and every save written before this field existed)."""


class SaveError(Exception):
    """A save that cannot be resumed; the message says why, for a person."""


class ContentUnavailable(SaveError):
    """The save's own card data is missing or changed. The save itself is sound,
    so it is kept where it is: restoring the file makes it resumable again."""


def load_content(game: Game[Any, Any], ref: ContentRef) -> Game[Any, Any]:
    """`game` with the card data at ``ref.path``, which must still hash to ``ref.hash``."""
    p = Path(ref.path)
    if not p.exists():
        raise ContentUnavailable(f"its card data {ref.path} is gone")
    try:
        mine = game.with_content(files.read_content(p))
    except (ContentError, OSError) as e:
        raise ContentUnavailable(f"its card data no longer loads: {e}") from None
    if mine.content_hash != ref.hash:
        raise ContentUnavailable(
            f"its card data {ref.path} has changed since (now {mine.content_hash[:12]}, "
            f"the game was played with {ref.hash[:12]})"
        )
    return mine


def record_content(rec: record.GameRecord) -> ContentRef | None:
    """The own card data a record names, if any (see CONTENT_META)."""
    path = rec.meta.get(CONTENT_META)
    return ContentRef(path, rec.content_hash) if path else None


# ---- events ------------------------------------------------------------------
class Applied(msgspec.Struct, frozen=True):
    """An action was applied. `text` is its log line, written before it applied."""

    seat: int
    action: str
    text: str
    ply: int
    before: State[Any, Any] | None = None  # the position it was made on (a LAN table's: its seat's view)


class GameOver(msgspec.Struct, frozen=True):
    outcome: str


class Undone(msgspec.Struct, frozen=True):
    """A person took back their last decision: the record now has `ply` entries."""

    seat: int
    ply: int


Event = Applied | GameOver | Undone
Listener = Callable[[Event], None]
ChanceSource = Callable[[State[Any, Any]], Awaitable[Action]]
RemoteSource = Callable[[int, State[Any, Any]], Awaitable[Action]]


def seat_label(seats: list[Seat], seat: int) -> str:
    if seat == CHANCE:
        return "Chance"
    if 0 <= seat < len(seats):
        return seats[seat].name
    return f"Seat {seat + 1}"


class Table:
    """One game in progress. Not thread-safe: drive it from one event loop."""

    def __init__(
        self,
        game: Game[Any, Any],
        state: State[Any, Any],
        seats: list[Seat],
        rec: record.GameRecord,
        *,
        save_path: Path | None = None,
        chance: ChanceSource | None = None,
        remote: RemoteSource | None = None,
        created: float | None = None,
        content: ContentRef | None = None,
    ) -> None:
        if len(seats) != state.players:
            raise ValueError(f"{len(seats)} seats for a {state.players}-player game")
        bots: dict[int, Bot] = {}
        for i, s in enumerate(seats):
            if s.kind is not SeatKind.BOT:
                continue
            if s.bot is None or s.bot not in game.bots:
                raise ValueError(f"unknown bot {s.bot!r}; {game.title} has {', '.join(game.bots)}")
            bots[i] = timed(game.bot(s.bot))
        self.game = game
        self.state = state
        self.seats = list(seats)
        self.record = rec
        self.save_path = save_path
        self.created = created if created is not None else time.time()
        self.content = content
        """The person's own card data in use; None for the packaged content."""
        self._chance = chance
        self._remote = remote
        self._events: Emitter[Event] = Emitter(contain=False)
        self._bots = bots
        self.think_pause: Callable[[], None] | None = None
        """Handed to a searching bot, which calls it between playouts from its worker
        thread (see ``SearchBot.pause``): the app holds the search there while it
        handles a key (when it thinks in a thread: no `thinker`, or it failed)."""
        self.thinker: Thinker | None = None
        """Runs search bots in a worker process (see net/play/thinker.py); None: in a thread here."""
        self._thought: asyncio.Future[Action] | None = None
        self._stopping = False

    # ---- construction ------------------------------------------------------
    @classmethod
    def new(
        cls,
        game_name: str | Game[Any, Any],
        seats: list[Seat],
        *,
        seed: int | str | None = None,
        options: object = None,
        save_path: Path | None = None,
        autosave: bool = True,
        meta: dict[str, str] | None = None,
        content: ContentRef | None = None,
    ) -> Table:
        """Start a game. With no seed a fresh one is taken from the OS.

        `content` names the person's own card data that `game` was loaded with
        (``game.with_content(files.read_content(content.path))``); it is saved so resuming loads it again.
        """
        game = games.get(game_name) if isinstance(game_name, str) else game_name
        if content is not None and content.hash != game.content_hash:
            raise ValueError(f"the card data {content.path} is not the content this game was loaded with")
        if seed is None:
            seed = os.urandom(8).hex()
        state = game.new(len(seats), seed=seed, options=options)
        m = {"seats": ", ".join(s.name for s in seats), **(meta or {})}
        people = [str(i) for i, s in enumerate(seats) if s.kind is SeatKind.PERSON]
        if people:  # whose own view a replay of the finished game opens on
            m.setdefault("people", ",".join(people))
        if content is not None:
            m[CONTENT_META] = content.path
        rec = record.start(game, state, options, meta=m)
        if autosave and save_path is None:
            save_path = paths.saves_dir() / f"{game.name}-{time.strftime('%Y%m%d-%H%M%S')}-{os.urandom(3).hex()}.json"
        table = cls(game, state, seats, rec, save_path=save_path, content=content)
        table.save()
        return table

    # ---- events ------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` on every event; returns a function that unsubscribes."""
        return self._events.subscribe(listener)

    # ---- queries -----------------------------------------------------------
    @property
    def current(self) -> int | None:
        return self.state.current

    @property
    def waiting_for_person(self) -> bool:
        cur = self.state.current
        return cur is not None and cur >= 0 and self.seats[cur].kind is SeatKind.PERSON

    @property
    def has_search_bot(self) -> bool:
        """Whether a seat is played by a bot that searches (it takes a while to move)."""
        return any(isinstance(b, SearchBot) for b in self._bots.values())

    def person_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind is SeatKind.PERSON]

    def view(self, seat: int | None) -> State[Any, Any]:
        return self.state.view(seat)

    # ---- acting ------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        """Apply `action` for `seat`; IllegalAction (state untouched) if it may not."""
        cur = self.state.current
        if cur is None:
            raise IllegalAction("the game is over")
        if cur != seat:
            raise IllegalAction(f"it is not {seat_label(self.seats, seat)}'s turn")
        text = self.state.describe(action) if self.state.is_legal(action) else ""
        before = self.state.clone()  # (on the event: a listener's log describes the move from it)
        self.state.apply(action)  # raises IllegalAction before changing anything
        record.append(self.record, seat, action, self.state)
        if self.state.is_over:
            note_result(self.record, self.state, [s.name for s in self.seats])
        self.save()
        self._events.emit(Applied(seat, str(action), text, self.state.ply, before))
        if self.state.is_over:
            self._events.emit(GameOver(self.state.scores().outcome))

    def submit(self, action: Action) -> None:
        """A local person's move for the seat whose turn it is."""
        cur = self.state.current
        if cur is None or cur < 0 or self.seats[cur].kind is not SeatKind.PERSON:
            raise IllegalAction("it is not a local player's turn")
        self.apply(cur, action)

    def bot_rng_path(self, seat: int) -> RngPath:
        """The Rng `seat`'s bot draws from now, as data a worker process can rebuild."""
        return RngPath(self.record.seed or "no-seed", (f"bot{seat}", self.state.ply))

    def bot_rng(self, seat: int) -> Rng:
        return self.bot_rng_path(seat).rng()

    def think_with(self, thinker: Thinker | None) -> None:
        """Think in `thinker`'s worker from now on (None: in a thread); a screen that
        opens this table calls it, which also undoes an earlier :meth:`stop_thinking`."""
        self.thinker = thinker
        self._stopping = False

    def stop_thinking(self) -> None:
        """The table is closing: a bot's move being thought in the worker is abandoned,
        and :meth:`step` raises ThinkingStopped (a thread's search stops through
        `think_pause`). Nothing is lost: the table was saved after the last move."""
        self._stopping = True
        if self._thought is not None:
            self._thought.cancel()

    async def _think(self, seat: int, bot: Bot, view: State[Any, Any]) -> Action:
        if self.thinker is None:
            # A thread keeps the event loop free; the app holds it while it handles a key.
            action: Action = await asyncio.to_thread(bot.choose, view, self.bot_rng(seat))
            return action
        if self._stopping:
            raise ThinkingStopped("the table was closed")
        content = self.content.path if self.content is not None else None
        self._thought = asyncio.ensure_future(
            self.thinker.choose(self.game, content, bot, view, self.bot_rng_path(seat))
        )
        try:
            return await self._thought
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if self._stopping and (me is None or not me.cancelling()):
                raise ThinkingStopped("the table was closed") from None
            raise  # this very step is being cancelled
        finally:
            self._thought = None

    async def next_chance(self) -> Action:
        if self._chance is not None:
            return await self._chance(self.state)
        action: Action = self.state.sample_chance()
        return action

    async def step(self) -> bool:
        """Take one non-person step (chance, bot or remote). False when a person must act or it's over."""
        cur = self.state.current
        if cur is None:
            return False
        if cur == CHANCE:
            self.apply(CHANCE, await self.next_chance())
            return True
        kind = self.seats[cur].kind
        if kind is SeatKind.BOT:
            view = self.state.view(cur)
            bot = self._bots[cur]
            if isinstance(bot, SearchBot):
                bot.pause = self.think_pause
            # Off the event loop: in the worker process, or a thread (see _think).
            action = await self._think(cur, bot, view)
            self.apply(cur, action)
            return True
        if kind is SeatKind.REMOTE:
            if self._remote is None:
                raise RuntimeError("a remote seat needs a remote source")
            self.apply(cur, await self._remote(cur, self.state.view(cur)))
            return True
        return False

    async def advance(self, *, max_steps: int = 100_000) -> None:
        """Run chance, bots and remotes until a person must act or the game ends."""
        for _ in range(max_steps):
            if not await self.step():
                return
        raise RuntimeError("advance() did not reach a person's turn")

    # ---- undo ------------------------------------------------------------------
    def undo_refusal(self) -> str | None:
        """Why the last decision cannot be taken back now, or None if it can.

        Only a local person's own decision, on their own turn, made since the last
        chance outcome (a draw, a dealt fish: it would be drawn again, or a secret
        learnt would be unlearnt) and since anyone else acted. Bots' moves never."""
        cur = self.state.current
        if cur is None:
            return "the game is over"
        if cur < 0 or self.seats[cur].kind is not SeatKind.PERSON:
            return "it is not a local player's turn"
        entries = self.record.entries
        if not entries:
            return "nothing has been played yet"
        last = entries[-1]
        if last.seat == CHANCE:
            return "not past a draw: what was drawn stays drawn"
        if last.seat != cur:
            return f"the last move was {seat_label(self.seats, last.seat)}'s, not yours"
        return None

    def undo(self) -> None:
        """Take back the current person's last decision: the record loses its last entry
        and the state is rebuilt by replaying the rest, so it is exactly the position as
        if that decision had never been made (same digest). IllegalAction says why not."""
        why = self.undo_refusal()
        if why is not None:
            raise IllegalAction(f"Cannot undo: {why}.")
        keep = self.record.entries[:-1]
        seat = self.record.entries[-1].seat
        _, state = record.initial_state(self.record, self.game)
        for entry in keep:
            state.apply(self.game.parse_action(entry.action))
        expected = keep[-1].digest if keep else self.record.start_digest
        if state.digest() != expected:  # an engine bug, never a person's: refuse loudly
            raise RecordError("undo: the replayed position differs from the record")
        self.record.entries = list(keep)
        self.state = state
        self.save()
        self._events.emit(Undone(seat, len(keep)))

    # ---- saving ------------------------------------------------------------
    def save(self) -> None:
        if self.save_path is None:
            return
        now = time.time()
        save = SaveFile(seats=self.seats, record=self.record, created=self.created, updated=now, content=self.content)
        write_atomic(self.save_path, msgspec.json.format(msgspec.json.encode(save), indent=1))

    def delete_save(self) -> None:
        if self.save_path is not None:
            Path(self.save_path).unlink(missing_ok=True)

    # ---- what a LAN table has and a local one does not (net/play/tablelike.py) ----
    can_undo = True
    lan_role = ""
    hints_on = True  # solo and hotseat: the person asks, nobody else is at the table to mind
    opening_note = ""
    bot_plays = False  # a local seat's person is at the keyboard: no turn timer here
    bot_idle = 0.0
    turn_timer = 0

    can_hand_over = False  # no turn clock at a local table

    def take_back(self) -> bool:
        return False

    def countdown(self) -> str:
        return ""

    def hand_over(self) -> str | None:
        return "a local table has no turn clock"


RESULT_META = ("winner", "outcome", "ended")
"""Record ``meta`` keys a finished game gets, so lists show the winner without replaying."""


def note_result(rec: record.GameRecord, state: State[Any, Any], names: list[str]) -> None:
    """Write the winner, the outcome line and the end time into a finished game's record meta."""
    try:
        sc = state.scores()
    except Exception:  # a courtesy for lists; the record itself is what counts
        return
    labels = [names[i] if i < len(names) and lab.startswith("Seat ") else lab for i, lab in enumerate(sc.labels)]
    if sc.ranking:
        rec.meta["winner"] = labels[sc.ranking[0]]
    if sc.outcome:
        rec.meta["outcome"] = sc.outcome
    rec.meta["ended"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")


def read_save(path: Path) -> SaveFile:
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise SaveError(f"cannot read {path.name}: {e.strerror or e}") from None
    try:
        head = msgspec.json.decode(raw, type=dict)
    except msgspec.DecodeError:
        raise SaveError(f"{path.name} is not a coldwater save (not JSON)") from None
    if head.get("format") != SAVE_FORMAT:
        raise SaveError(
            f"{path.name} was written by an incompatible version (save format {head.get('format')!r}, "
            f"this version reads {SAVE_FORMAT})"
        )
    try:
        return msgspec.json.decode(raw, type=SaveFile)
    except msgspec.ValidationError as e:
        raise SaveError(f"{path.name} is damaged: {e}") from None


def resume(path: Path, *, set_aside: bool = True, game: Game[Any, Any] | None = None) -> Table:
    """Reopen a saved table, replaying and verifying its record.

    A save that cannot be resumed is moved aside untouched (``*.unreadable``) so
    it never blocks the list again, and SaveError says why. A save whose own
    card data is gone or changed is left in place (ContentUnavailable): the save
    is sound, and putting the file back makes it resumable.
    """
    path = Path(path)
    try:
        save = read_save(path)
        if save.content is not None:
            if game is None:
                try:
                    game = games.get(save.record.game)
                except KeyError as e:
                    raise SaveError(f"{path.name}: {e.args[0]}") from None
            if game.content_hash != save.content.hash:
                try:
                    game = load_content(game, save.content)
                except ContentUnavailable as e:
                    raise ContentUnavailable(
                        f"{path.name} cannot be resumed: {e}. The save is kept: restore that card data to play on."
                    ) from None
        try:
            game, state = record.initial_state(save.record, game)
            clock, clocks = START, []
            for _, _, after in record.replay_iter(save.record, game):
                state = after
                clock = advance(clock, after)
                clocks.append(clock)
            if any(e.clock is None for e in save.record.entries):  # saved before clocks were kept
                save.record.entries = [msgspec.structs.replace(e, clock=c) for e, c in zip(save.record.entries, clocks)]
        except RecordError as e:
            raise SaveError(f"{path.name} cannot be replayed: {e}") from None
        if len(save.seats) != state.players:
            raise SaveError(f"{path.name} has {len(save.seats)} seats for a {state.players}-player game")
        try:
            return Table(
                game, state, save.seats, save.record, save_path=path, created=save.created, content=save.content
            )
        except ValueError as e:
            raise SaveError(f"{path.name}: {e}") from None
    except SaveError as err:
        if set_aside and path.exists() and not isinstance(err, ContentUnavailable):
            moved = files.set_aside(path, "unreadable")
            raise SaveError(f"{err} — kept aside as {moved.name}") from None
        raise


class SaveInfo(msgspec.Struct, frozen=True):
    path: str
    game: str
    seats: str
    plies: int
    updated: float
    problem: str | None = None
    content: str | None = None
    """The path of the game's own card data, if it has any."""
    turns: int = 0
    """Turns played (see :func:`count_turns`), what a person means by "how far"."""
    people: tuple[str, ...] = ()
    """Names of the seats played at this keyboard."""
    others: tuple[str, ...] = ()
    """Names of the other seats (bots, remote players): the opponents."""


def turn_starts(entries: list[record.Entry]) -> list[int]:
    """Indices of the entries that begin a turn.

    A turn is a run of decisions by one seat; chance outcomes in between belong
    to the turn they interrupt. Generic over every game, and read off the record
    alone, so listing saves never replays them.
    """
    out: list[int] = []
    last: int | None = None
    for i, e in enumerate(entries):
        if e.seat == CHANCE:
            continue
        if e.seat != last:
            out.append(i)
            last = e.seat
    return out


def count_turns(entries: list[record.Entry]) -> int:
    """Turns played: the record's own count (see coldwater.core.clock), or for a record
    written before it kept one, the runs of one seat's decisions."""
    last = entries[-1].clock if entries else None
    return last.turn if last is not None else len(turn_starts(entries))


def list_saves(folder: Path | None = None) -> list[SaveInfo]:
    """Every save in `folder`, newest first; unreadable ones listed with the problem."""
    folder = folder or paths.saves_dir()
    out: list[SaveInfo] = []
    for p in sorted(folder.glob("*.json")):
        try:
            s = read_save(p)
            out.append(
                SaveInfo(
                    str(p),
                    s.record.game,
                    ", ".join(x.name for x in s.seats),
                    len(s.record.entries),
                    s.updated,
                    content=s.content.path if s.content else None,
                    turns=count_turns(s.record.entries),
                    people=tuple(x.name for x in s.seats if x.kind is SeatKind.PERSON),
                    others=tuple(x.name for x in s.seats if x.kind is not SeatKind.PERSON),
                )
            )
        except SaveError as e:
            out.append(SaveInfo(str(p), "?", "", 0, p.stat().st_mtime, problem=str(e)))
    out.sort(key=lambda i: -i.updated)
    return out


def delete(path: Path, folder: Path | None = None) -> None:
    """Delete one save for good (a person confirmed it). Only a save file in `folder`
    (the saves folder) is touched; anything else is a ValueError."""
    folder = (folder or paths.saves_dir()).resolve()
    p = Path(path).resolve()
    if p.parent != folder or not (p.suffix == ".json" or ".json.unreadable" in p.name):
        raise ValueError(f"{p} is not a save in {folder}")
    p.unlink(missing_ok=True)
