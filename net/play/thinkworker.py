"""The worker process behind :class:`coldwater.net.play.thinker.Thinker`: ``python -m coldwater.net.play.thinkworker``.

It reads requests on stdin and answers on stdout (see net/play/thinkwire.py for the
messages). Two threads: the main one searches, one request at a time; a reader
takes every message as it arrives, so a cancel reaches a search that is running
(it stops at its next iteration, through ``SearchBot.pause``), so does a hold
while the app handles a key (the search waits there until Go), and end of file
(the app closed the pipe, or died) ends the process at once, mid-search or not.
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

import msgspec

from coldwater.core import games, record
from coldwater.core.review import (
    decisions,
    default_budget,
    finish,
    hint,
    hint_budget,
    review_decisions,
    steps,
    summarize,
)
from coldwater.core.search import SearchBot
from coldwater.core.state import Game, State
from coldwater.net.play import thinkshare
from coldwater.net.play.files import read_content
from coldwater.net.play.thinkhere import timed
from coldwater.net.play.thinkwire import (
    HOLD_AT_MOST,
    PROTOCOL,
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
    Stopped,
    Think,
    ToWorker,
    frame,
    read_frame,
)

GAMES_KEPT = 8
"""Loaded games (packaged or a person's card data) kept between requests."""


class _Cancelled(Exception):
    pass


class Worker:
    def __init__(self, out: IO[bytes]) -> None:
        self.out = out
        self.jobs: queue.SimpleQueue[Think | Review | HintAsk] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.cancelled: set[int] = set()
        self.finished = 0
        """Ids come in rising order: a cancel for one at or below this is late, and dropped."""
        self.games: dict[tuple[str, str | None, str], Game[Any, Any]] = {}
        self.decoder = msgspec.msgpack.Decoder(ToWorker)
        self.go = threading.Event()
        """Clear while the app handles a key (Hold, until Go)."""
        self.go.set()
        self.held_since = 0.0

    # ---- the reader thread ----------------------------------------------------
    def read(self, inp: IO[bytes]) -> None:
        try:
            while True:
                body = read_frame(inp)
                if body is None:
                    break
                msg = self.decoder.decode(body)
                if isinstance(msg, Cancel):
                    with self.lock:
                        if msg.id > self.finished:
                            self.cancelled.add(msg.id)
                elif isinstance(msg, Hold):
                    self.held_since = time.monotonic()
                    self.go.clear()
                elif isinstance(msg, Go):
                    self.go.set()
                else:
                    self.jobs.put(msg)
        except Exception as e:  # a message the app should never send: say so, and go
            print(f"thinkworker: bad message from the app: {e}", file=sys.stderr, flush=True)
        # The app is gone or done with us. Nothing here is worth finishing.
        os._exit(0)

    # ---- the main thread ----------------------------------------------------------
    def send(self, msg: FromWorker) -> None:
        try:
            self.out.write(frame(msg))
            self.out.flush()
        except OSError:  # the app closed its end: it no longer wants an answer
            os._exit(0)

    def serve(self) -> None:
        self.send(Ready(PROTOCOL, os.getpid()))
        while True:
            job = self.jobs.get()
            reply: FromWorker
            if isinstance(job, Think):
                reply = self.think(job)
            elif isinstance(job, HintAsk):
                reply = self.hint(job)
            else:
                reply = self.review(job)
            with self.lock:
                self.cancelled.discard(job.id)
                self.finished = max(self.finished, job.id)
            self.send(reply)

    def game(self, job: Think | Review | HintAsk) -> Game[Any, Any]:
        key = (job.game, job.content, job.content_hash)
        game = self.games.get(key)
        if game is None:
            game = games.get(job.game)
            if job.content is not None:
                game = game.with_content(read_content(job.content))
            if game.content_hash != job.content_hash:
                raise ValueError(
                    f"the card data here hashes to {game.content_hash[:12]}, the app's to {job.content_hash[:12]}"
                )
            if len(self.games) >= GAMES_KEPT:
                self.games.clear()
            self.games[key] = game
        return game

    def pauser(self, job: Think | Review | HintAsk) -> Callable[[], None]:
        """Called between a search's iterations (a review's worlds): wait while the app
        handles a key, stop if the job was cancelled."""

        def pause() -> None:
            if not self.go.is_set():  # the app is handling a key: let it have the machine
                left = self.held_since + HOLD_AT_MOST - time.monotonic()
                if left > 0:
                    self.go.wait(left)
            if job.id in self.cancelled:  # (a set lookup; the reader only adds)
                raise _Cancelled

        return pause

    def review(self, job: Review) -> Reviewed | Stopped | Failed:
        pause = self.pauser(job)
        try:
            pause()
            game = self.game(job)
            rec = record.loads(job.record)
            budget = default_budget(game).deeper(job.depth)
            todo = list(decisions(rec, game, job.seat))
            of = steps(todo, budget)
            # Two cores: a helper process judges every other decision (thinkshare.py).
            helper = None
            if len(todo) >= thinkshare.HELP_FROM and thinkshare.cores() >= 2:
                args = (job.game, job.content, job.record, job.seat, job.depth, job.seed, 1, 2, os.getpid())
                helper = thinkshare.Helper(*args)
            try:
                mine = todo[0::2] if helper is not None else todo
                done = []
                step = 2 if helper is not None else 1
                for k, r in enumerate(review_decisions(game, mine, budget=budget, seed=job.seed, pause=pause), 1):
                    done.append(r)
                    self.send(Progress(job.id, min(len(todo), k * step), of))
                if helper is not None:
                    while not helper.ready(0.2):
                        pause()  # a cancel ends the wait (and the helper, below)
                    done = [r for pair in zip(done, helper.reviews()) for r in pair] + done[len(todo) // 2 :]
            finally:
                if helper is not None:
                    helper.close()
            out = list(done)
            for k, n, r in finish(game, list(zip(todo, done)), budget=budget, seed=job.seed, pause=pause):
                out.append(r)
                self.send(Progress(job.id, k, n))
            return Reviewed(job.id, msgspec.msgpack.encode(summarize(game.name, job.seat, out)))
        except _Cancelled:
            return Stopped(job.id)
        except Exception as e:
            return Failed(job.id, f"{type(e).__name__}: {e}")

    def hint(self, job: HintAsk) -> Hinted | Stopped | Failed:
        pause = self.pauser(job)
        try:
            pause()
            game = self.game(job)
            view = self.view(game, job.view, job.ply, job.digest)
            include = game.parse_action(job.include) if job.include else None
            budget = hint_budget(game).deeper(job.depth)
            found = hint(game, view, budget=budget, seed=job.seed, pause=pause, include=include)
            return Hinted(job.id, msgspec.msgpack.encode(found))
        except _Cancelled:
            return Stopped(job.id)
        except Exception as e:
            return Failed(job.id, f"{type(e).__name__}: {e}")

    @staticmethod
    def view(game: Game[Any, Any], data: bytes, ply: int, digest: str) -> State[Any, Any]:
        """A seat's view as the app encoded it, checked against the app's digest."""
        st = game.state_type
        view: State[Any, Any] = st(msgspec.msgpack.decode(data, type=st.DATA), seed=None, ply=ply)
        if view.digest() != digest:
            raise ValueError("the view decoded here is not the app's position")
        return view

    def think(self, job: Think) -> Chose | Stopped | Failed:
        t0 = time.perf_counter()
        pause = self.pauser(job)

        try:
            pause()
            game = self.game(job)
            view = self.view(game, job.view, job.ply, job.digest)
            bot = timed(game.bot(job.bot))
            if job.budget is not None:
                if not isinstance(bot, SearchBot):
                    raise ValueError(f"{job.bot!r} is not a search bot")
                job.budget.give(bot)
                bot.pause = pause
            action = bot.choose(view, job.rng.rng())
            iterations = bot.last_iterations if isinstance(bot, SearchBot) else 0
            return Chose(job.id, str(action), iterations, time.perf_counter() - t0)
        except _Cancelled:
            return Stopped(job.id)
        except Exception as e:
            return Failed(job.id, f"{type(e).__name__}: {e}")


def main() -> None:
    # A Ctrl-C in the app's terminal reaches its whole process group; the app decides
    # what it means, and closes our stdin if it means quitting.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The protocol owns fd 1: anything else that prints goes to stderr instead.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    inp = sys.stdin.buffer
    worker = Worker(out)
    threading.Thread(target=worker.read, args=(inp,), name="thinkworker-reader", daemon=True).start()
    worker.serve()


if __name__ == "__main__":
    main()
