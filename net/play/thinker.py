"""A search bot thinks in a process of its own, so the app's event loop never waits for it.

Python runs one thread at a time: a search in a thread beside the app takes the
interpreter from every key the app handles (a full repaint then waits for the
search's next check). A :class:`Thinker` keeps one worker process per app
(``python -m coldwater.net.play.thinkworker``), started the first time a search bot is
about to think (or when a table with one opens, :meth:`Thinker.warm`) and reused
for every move after, so its start-up cost is paid once.

The :class:`Thinker` is one state machine (the worker, its requests in flight, its faults)
whose methods all share that state; what is done to the process itself (starting it and
hearing it is ready, reading, sending, stopping, killing) is in thinkproc.py, the messages
in thinkwire.py and the thinking in this process in thinkhere.py.

What crosses the pipe is data (thinkwire.py: the messages and their framing): the
worker rebuilds the same bot, position and Rng, and answers the action's notation, so
its choice is the one the bot would have made here, for every seed and budget.

A fresh process (not ``fork``: the app has threads) with its own pipes, rather
than ``multiprocessing``: the app owns the terminal, and the worker's stdio is
ours to point away from it; nothing from the app's ``__main__`` is re-imported;
and the worker's stdin doubles as its lifeline: when the app closes it, or dies
in any way (even SIGKILL), the worker reads end-of-file and exits at once,
mid-search or not. So no worker outlives its app.

On a busy machine the worker still competes with the app for a CPU, so it is held
like a thread's search was: the app sends Hold when a key arrives and Go when its
repaint is done, and the search waits between iterations (never changing its move:
the budget is in iterations, and held time does not count against its clock cap).

Faults never cost a move or hang a table: a worker that cannot start, dies,
answers nonsense or overruns its budget's clock cap by a wide margin is killed,
the move is thought here in a thread instead (the old way, same choice), and
the next move starts a fresh worker. After `restarts` faults the app stops
trying and thinks here for good. Each fault is reported through `notify`. Thinking
here (the fallback, and a search bot's clock) is thinkhere.py; its names are
re-exported, as the app imports everything for thinking from this module.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import math
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import msgspec

from coldwater.core import games
from coldwater.core import record as record_mod
from coldwater.core.notation import Action
from coldwater.core.record import GameRecord
from coldwater.core.review import Hint, SeatReview
from coldwater.core.search import SearchBot
from coldwater.core.state import Bot, Game, State

from . import thinkproc
from .thinkhere import ThinkingStopped, hint_here, review_here, timed
from .thinkproc import WorkerTrouble, worker_command
from .thinkwire import (
    Cancel,
    Chose,
    Failed,
    FromWorker,
    Go,
    HintAsk,
    Hinted,
    Hold,
    Progress,
    Ready,
    Review,
    Reviewed,
    RngPath,
    SearchBudget,
    Think,
)

START_TIMEOUT = 30.0
"""Seconds a new worker has to say it is ready (imports on a busy machine)."""

OVERRUN_GRACE = 30.0
"""Seconds past a budget's own clock cap before a silent worker counts as hung."""

RESTARTS = 2
"""Faults after which the app stops starting workers and thinks in a thread."""


# ---- the app's side -------------------------------------------------------------
_Answer = TypeVar("_Answer", Reviewed, Hinted)
"""A job's one answer (:meth:`Thinker._answered`)."""


class Thinker:
    """One worker process for an app's search bots; see the module docstring.

    Drive it from one event loop. Searches take turns: a second table's bot
    waits for the first's move (an app shows one table at a time).
    """

    def __init__(
        self,
        *,
        notify: Callable[[str], None] | None = None,
        command: Sequence[str] | None = None,
        restarts: int = RESTARTS,
        start_timeout: float = START_TIMEOUT,
        grace: float = OVERRUN_GRACE,
    ) -> None:
        self.notify = notify
        self.command = tuple(command) if command is not None else worker_command()
        self.restarts = restarts
        self.start_timeout = start_timeout
        self.grace = grace
        self.notices: collections.deque[str] = collections.deque(maxlen=20)
        """What went wrong, newest last (also handed to `notify`)."""
        self.faults = 0
        self.disabled: str | None = None
        """Why the app thinks in a thread for good (too many faults), or None."""
        self.startups: list[float] = []
        """Seconds from spawning each worker to its first word (one per start)."""
        self.remote_moves = 0
        """Moves the worker chose (tests and benchmarks)."""
        self.closed = False
        self._proc: asyncio.subprocess.Process | None = None
        self._starting: asyncio.Task[asyncio.subprocess.Process] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        """The current worker's listener and stderr reader."""
        self._reaping: set[asyncio.Task[None]] = set()
        """Workers let go after a fault, being killed and waited for."""
        self._pending: dict[int, asyncio.Future[FromWorker]] = {}
        self._progress: dict[int, Callable[[int, int], None]] = {}
        """A running review's progress callback, by request id."""
        self._next_id = 1
        self._lock: asyncio.Lock | None = None
        self._held = False
        """A Hold was sent and its Go not yet."""
        self.hints_asked: collections.deque[int] = collections.deque(maxlen=20)
        """Request ids of the latest hints sent to the worker (tests check a cancelled one ends)."""
        self.late: collections.deque[str] = collections.deque(maxlen=20)
        """Kinds of the answers that came for a request nobody waited for any more (tests)."""
        self._stderr: collections.deque[str] = collections.deque(maxlen=8)
        """The worker's last lines on stderr, for a notice when it dies."""

    # ---- state -----------------------------------------------------------
    @property
    def pid(self) -> int | None:
        """The worker's process id while one runs."""
        p = self._proc
        return p.pid if p is not None and p.returncode is None else None

    def warm(self) -> None:
        """Start the worker now, in the background (a table with a search bot opened)."""
        if self._usable() and self._proc is None and self._starting is None:
            self._starting = asyncio.ensure_future(self._start())
            self._starting.add_done_callback(thinkproc.quiet)

    def _usable(self) -> bool:
        return not self.closed and self.disabled is None

    # ---- holding while a key is handled ----------------------------------------
    def hold(self, held: bool) -> None:
        """A key arrived (True) or its repaint is done (False): hold a running search
        meanwhile, so the app has the machine to itself. Cheap when nothing searches."""
        if held == self._held:
            return
        proc = self._proc
        if held and (proc is None or not self._pending):
            return  # nothing is searching: nothing to hold
        self._held = held
        if proc is not None:
            with contextlib.suppress(Exception):
                thinkproc.send(proc, Hold() if held else Go())

    # ---- choosing ------------------------------------------------------------
    async def choose(
        self, game: Game[Any, Any], content: str | None, bot: Bot, view: State[Any, Any], rng: RngPath
    ) -> Action:
        """`bot`'s move in `view` with the Rng `rng`: thought in the worker when `bot`
        searches, here in a thread otherwise or when the worker fails."""
        if not isinstance(bot, SearchBot) or not self._usable() or not _rebuildable(game, content):
            return await self.here(bot, view, rng)
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            try:
                action = await self._remote(game, content, bot, view, rng)
            except WorkerTrouble as e:
                self._fault(str(e))
                action = None
        if action is None:
            return await self.here(bot, view, rng)
        self.remote_moves += 1
        return action

    @staticmethod
    async def here(bot: Bot, view: State[Any, Any], rng: RngPath) -> Action:
        """The old way: a thread of this process (the table's pause hook still applies)."""
        return await asyncio.to_thread(bot.choose, view, rng.rng())

    async def _remote(
        self, game: Game[Any, Any], content: str | None, bot: SearchBot, view: State[Any, Any], rng: RngPath
    ) -> Action:
        proc = await self._ensure()
        rid = self._next_id
        self._next_id += 1
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[FromWorker] = loop.create_future()
        self._pending[rid] = fut
        job = Think(
            id=rid,
            game=game.name,
            content=content,
            content_hash=game.content_hash,
            bot=bot.name,
            budget=SearchBudget.of(bot),
            ply=view.ply,
            view=view.encode(),
            digest=view.digest(),
            rng=rng,
        )
        timeout = None if math.isinf(bot.max_seconds) else bot.max_seconds + self.grace
        try:
            thinkproc.send(proc, job)
            reply = await asyncio.wait_for(asyncio.shield(fut), timeout)
        except asyncio.CancelledError:
            # The table closed (or the app quits): the worker drops the search at its
            # next iteration and stays for the next table.
            with contextlib.suppress(Exception):
                thinkproc.send(proc, Cancel(rid))
            raise
        except TimeoutError:
            raise WorkerTrouble(f"it did not answer within {timeout:.0f} s") from None
        finally:
            self._pending.pop(rid, None)
        if isinstance(reply, Failed):
            raise WorkerTrouble(f"it could not think: {reply.error}")
        if not isinstance(reply, Chose):
            raise WorkerTrouble(f"it answered {type(reply).__name__} to a search")
        try:
            action: Action = game.parse_action(reply.action)
        except Exception as e:
            raise WorkerTrouble(f"it chose {reply.action!r}, which does not parse: {e}") from None
        if not view.is_legal(action):
            raise WorkerTrouble(f"it chose {reply.action!r}, which is not legal here")
        bot.last_iterations = reply.iterations
        return action

    # ---- reviewing a game --------------------------------------------------------
    async def review(
        self,
        game: Game[Any, Any],
        content: str | None,
        rec: GameRecord,
        seat: int,
        *,
        depth: int = 1,
        seed: str = "0",
        progress: Callable[[int, int], None] | None = None,
    ) -> SeatReview:
        """`seat`'s review of `rec` (``core.review``), in the worker, or in a thread when the
        worker cannot (the same review: it is deterministic for the seed and depth).
        `progress(done, of)` is called on this loop after each decision; cancelling the
        awaiting task stops the review at its next world."""
        tell = progress or (lambda done, of: None)
        if self._usable() and _rebuildable(game, content):
            if self._lock is None:
                self._lock = asyncio.Lock()
            async with self._lock:
                try:
                    return await self._remote_review(game, content, rec, seat, depth, seed, tell)
                except WorkerTrouble as e:
                    self._fault(str(e))
        return await review_here(game, rec, seat, depth=depth, seed=seed, progress=tell)

    async def _remote_review(
        self,
        game: Game[Any, Any],
        content: str | None,
        rec: GameRecord,
        seat: int,
        depth: int,
        seed: str,
        tell: Callable[[int, int], None],
    ) -> SeatReview:
        proc = await self._ensure()
        rid = self._next_id
        self._next_id += 1
        fut: asyncio.Future[FromWorker] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        self._progress[rid] = tell
        job = Review(
            id=rid,
            game=game.name,
            content=content,
            content_hash=game.content_hash,
            record=record_mod.dumps(rec),
            seat=seat,
            depth=depth,
            seed=seed,
        )
        # No clock: a review's length is its record's.
        reply = await self._answered(proc, job, fut, Reviewed, "review")
        try:
            return msgspec.msgpack.decode(reply.review, type=SeatReview)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            raise WorkerTrouble(f"its review does not decode: {e}") from None

    async def _answered(
        self,
        proc: asyncio.subprocess.Process,
        job: Review | HintAsk,
        fut: asyncio.Future[FromWorker],
        kind: type[_Answer],
        what: str,
    ) -> _Answer:
        """Send `job` and wait for its one answer of type `kind`; cancelling tells the worker to stop.
        A failure or another answer is WorkerTrouble (the caller falls back to this process)."""
        try:
            thinkproc.send(proc, job)
            reply = await asyncio.shield(fut)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                thinkproc.send(proc, Cancel(job.id))
            raise
        finally:
            self._pending.pop(job.id, None)
            self._progress.pop(job.id, None)
        if isinstance(reply, Failed):
            raise WorkerTrouble(f"its {what} failed: {reply.error}")
        if not isinstance(reply, kind):
            raise WorkerTrouble(f"it answered {type(reply).__name__} to a {what}")
        return reply

    # ---- a hint at the table ------------------------------------------------------
    async def hint(
        self,
        game: Game[Any, Any],
        content: str | None,
        view: State[Any, Any],
        *,
        depth: int = 1,
        include: Action | None = None,
    ) -> Hint:
        """The best few choices at `view` (``core.review.hint``), in the worker, or in a thread
        when the worker cannot (the same hint: it is deterministic for the position).
        `include` is evaluated and listed too (Learn to play's gentle word on a choice made).
        Cancelling the awaiting task stops it at its next world."""
        if self._usable() and _rebuildable(game, content):
            if self._lock is None:
                self._lock = asyncio.Lock()
            async with self._lock:
                try:
                    return await self._remote_hint(game, content, view, depth, include)
                except WorkerTrouble as e:
                    self._fault(str(e))
        return await hint_here(game, view, depth=depth, include=include)

    async def _remote_hint(
        self, game: Game[Any, Any], content: str | None, view: State[Any, Any], depth: int, include: Action | None
    ) -> Hint:
        proc = await self._ensure()
        rid = self._next_id
        self._next_id += 1
        fut: asyncio.Future[FromWorker] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        self.hints_asked.append(rid)
        job = HintAsk(
            id=rid,
            game=game.name,
            content=content,
            content_hash=game.content_hash,
            ply=view.ply,
            view=view.encode(),
            digest=view.digest(),
            depth=depth,
            include="" if include is None else str(include),
        )
        reply = await self._answered(proc, job, fut, Hinted, "hint")  # no clock: a hint's budget is in worlds
        try:
            got = msgspec.msgpack.decode(reply.hint, type=Hint)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            raise WorkerTrouble(f"its hint does not decode: {e}") from None
        if got.digest != view.digest():
            raise WorkerTrouble("its hint is for another position")
        return got

    # ---- the process -----------------------------------------------------------
    async def _ensure(self) -> asyncio.subprocess.Process:
        if self._proc is not None and self._proc.returncode is None:
            return self._proc
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._start())
            self._starting.add_done_callback(thinkproc.quiet)
        try:
            return await asyncio.shield(self._starting)
        finally:
            if self._starting.done():
                self._starting = None

    async def _start(self) -> asyncio.subprocess.Process:
        await self._stop_process()  # a dead or hung predecessor, if any
        t0 = time.perf_counter()
        proc = await thinkproc.spawn(self.command, self.start_timeout, self._stderr, self._tasks)
        self.startups.append(time.perf_counter() - t0)
        if self.closed:  # the app quit while the worker started
            thinkproc.kill(proc)
            await proc.wait()
            raise WorkerTrouble("the app is closing")
        self._proc = proc
        self._tasks.append(asyncio.ensure_future(self._listen(proc)))
        return proc

    async def _listen(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        why = "it exited"
        try:
            while True:
                msg = await thinkproc.read(proc.stdout)
                if isinstance(msg, Ready):
                    continue
                if isinstance(msg, Progress):
                    tell = self._progress.get(msg.id)
                    if tell is not None:
                        tell(msg.done, msg.of)
                    continue
                fut = self._pending.get(msg.id)
                if fut is not None and not fut.done():
                    fut.set_result(msg)
                else:  # the answer to a request that was cancelled meanwhile
                    self.late.append(type(msg).__name__)
        except WorkerTrouble as e:
            why = str(e)
        code = await proc.wait() if why == "it exited" else None
        if code is not None:
            why = f"it exited (status {code})"
        if self._stderr and not self.closed:
            why += f"; it said: {self._stderr[-1]}"
        if self._proc is not proc:
            return  # let go on purpose (a fault, or closing)
        waiting = [f for f in self._pending.values() if not f.done()]
        for fut in waiting:
            fut.set_exception(WorkerTrouble(why))  # the search's caller reports it
        if not waiting:
            self._fault(why)  # died between moves: say so, and start afresh next time

    def _fault(self, why: str) -> None:
        self.faults += 1
        if self.closed:
            return
        if self.faults > self.restarts:
            self.disabled = why
            text = f"The bots' thinking process failed again ({why}); bots think inside the app from now on."
        else:
            text = (
                f"The bots' thinking process failed ({why}); this move is thought inside the app, "
                "the next in a fresh process."
            )
        self._let_go()
        self.notices.append(text)
        if self.notify is not None:
            self.notify(text)

    def _let_go(self) -> None:
        """Kill the current worker (hung, dead or confused) and reap it in the background."""
        proc, self._proc = self._proc, None
        tasks, self._tasks = self._tasks, []
        if proc is None:
            return
        thinkproc.kill(proc)

        async def reap() -> None:
            await proc.wait()
            await thinkproc.end(tasks)

        task = asyncio.ensure_future(reap())
        self._reaping.add(task)
        task.add_done_callback(self._reaping.discard)

    async def _stop_process(self, patience: float = 2.0) -> None:
        proc, self._proc = self._proc, None
        tasks, self._tasks = self._tasks, []
        await thinkproc.stop(proc, tasks, patience)

    async def close(self) -> None:
        """The app is done: the worker exits (any search is abandoned) and is reaped."""
        self.closed = True
        starting, self._starting = self._starting, None
        if starting is not None:
            with contextlib.suppress(BaseException):
                await starting
        await self._stop_process()
        for task in list(self._reaping):
            with contextlib.suppress(BaseException):
                await task


def _rebuildable(game: Game[Any, Any], content: str | None) -> bool:
    """Whether a worker can load `game` as it is here: a registered game, with its
    packaged card data or a person's file (a test's own game object cannot be)."""
    if game.name not in games.names():
        return False
    return content is not None or game.content_hash == games.get(game.name).content_hash


__all__ = [
    "RngPath",
    "Thinker",
    "ThinkingStopped",
    "WorkerTrouble",
    "hint_here",
    "review_here",
    "timed",
    "worker_command",
]
