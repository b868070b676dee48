"""The worker process as the app's :class:`~.thinker.Thinker` handles it: starting it and
hearing it say it is ready, reading and sending its messages, keeping its last words on
stderr, and stopping or killing it.

Each function is about one process and holds no state of its own: what a worker is doing
(its requests in flight, its faults) is the Thinker's. Anything that goes wrong with the
process is a :class:`WorkerTrouble`, which the Thinker turns into a fault and a move
thought in this process instead.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import sys
from collections.abc import Sequence
from typing import Any

import msgspec

from coldwater.net.play import framing

from .thinkwire import MAX_FRAME, PROTOCOL, FromWorker, Ready, decode_from_worker, frame


class WorkerTrouble(Exception):
    """The worker could not start, died, or answered what it should not have."""


def worker_command() -> tuple[str, ...]:
    """How the app starts a worker (this Python, the installed package)."""
    return (sys.executable, "-m", "coldwater.net.play.thinkworker")


async def spawn(
    command: Sequence[str],
    start_timeout: float,
    said: collections.deque[str],
    tasks: list[asyncio.Task[None]],
) -> asyncio.subprocess.Process:
    """A new worker that said it is Ready in our protocol within `start_timeout` seconds; its stderr is
    read into `said` by a task added to `tasks`. A worker that does not is killed, reaped, and told."""
    try:
        proc = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError as e:
        raise WorkerTrouble(f"it could not start: {e}") from None
    assert proc.stdout is not None and proc.stderr is not None
    said.clear()
    tasks.append(asyncio.ensure_future(drain(proc.stderr, said)))
    try:
        hello = await asyncio.wait_for(read(proc.stdout), start_timeout)
    except (TimeoutError, WorkerTrouble) as e:
        kill(proc)
        await proc.wait()
        why = f"no word within {start_timeout:.0f} s" if isinstance(e, TimeoutError) else str(e)
        raise WorkerTrouble(f"it did not start: {why}" + (f"; it said: {said[-1]}" if said else "")) from None
    if not isinstance(hello, Ready) or hello.protocol != PROTOCOL:
        kill(proc)
        await proc.wait()
        raise WorkerTrouble(f"it does not speak protocol {PROTOCOL} ({hello!r})")
    return proc


async def read(stream: asyncio.StreamReader) -> FromWorker:
    """The worker's next message; its end, or a message too large or that does not decode, is trouble."""
    try:
        body = await framing.read_frame(stream, MAX_FRAME)
    except framing.FrameTooLarge as e:
        raise WorkerTrouble(f"it sent too large a message ({e})") from None
    except framing.FrameTruncated:
        body = None
    if body is None:
        raise WorkerTrouble("it exited")
    try:
        return decode_from_worker(body)
    except msgspec.DecodeError as e:
        raise WorkerTrouble(f"it sent a message that does not decode: {e}") from None


async def drain(stream: asyncio.StreamReader, said: collections.deque[str]) -> None:
    """Read stderr to the end so the worker never blocks on a full pipe; keep its last lines in `said`."""
    with contextlib.suppress(Exception):
        async for line in stream:
            text = line.decode(errors="replace").strip()
            if text:
                said.append(text[:300])


def send(proc: asyncio.subprocess.Process, msg: msgspec.Struct) -> None:
    if proc.stdin is None or proc.returncode is not None or proc.stdin.is_closing():
        raise WorkerTrouble("it is not running")
    proc.stdin.write(frame(msg))


async def stop(proc: asyncio.subprocess.Process | None, tasks: list[asyncio.Task[None]], patience: float) -> None:
    """Let `proc` exit (killed after `patience` seconds) and reap it, then end its `tasks`."""
    if proc is not None:
        if proc.returncode is None and proc.stdin is not None:
            # End of file on its stdin: the worker exits at once, mid-search or not.
            with contextlib.suppress(Exception):
                proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), patience)
            except TimeoutError:
                kill(proc)
        await proc.wait()
    await end(tasks)


async def end(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel `tasks` and wait for each to be done."""
    for t in tasks:
        t.cancel()
    for t in tasks:
        with contextlib.suppress(BaseException):
            await t


def kill(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()


def quiet(task: asyncio.Future[Any]) -> None:
    """A background start's failure is reported by whoever awaits it next."""
    if not task.cancelled():
        task.exception()
