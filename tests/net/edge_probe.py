"""Helper processes for tests/net/test_edge_netns.py: a table that only handshakes, and a
joiner that reports how long an idle connection takes to notice the link went away."""

from __future__ import annotations

import asyncio
import sys
import time

from coldwater.net.admission import Guard, accept, listen
from coldwater.net.identity import Identity
from coldwater.net.transport import Connection, connect


async def serve(port: int) -> None:
    me = Identity.generate()
    held: list[Connection] = []
    guard = Guard()

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = await accept(reader, writer, me, "toy", "c", table="edge", guard=guard)
        if conn is not None:
            held.append(conn)  # never says a word: only TCP can notice a dead link

    await listen(handler, "0.0.0.0", port, guard=guard)
    print("listening", flush=True)
    await asyncio.sleep(3600)


async def join(addr: str, port: int) -> None:
    conn, _ = await connect(addr, port, Identity.generate(), "toy", "c")
    print("connected", flush=True)
    t0 = time.monotonic()
    while await conn.recv() is not None:
        pass
    print(f"closed {time.monotonic() - t0:.1f}", flush=True)


async def flood(addr: str, port: int, n: int) -> None:
    """`n` connections that never say a word, kept open (the host may hang them up)."""
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (n + 256, max(n + 256, resource.getrlimit(resource.RLIMIT_NOFILE)[1])))
    held = []
    for _ in range(n):
        try:
            held.append(await asyncio.open_connection(addr, port))
        except OSError:
            pass
    print(f"flooding {len(held)}", flush=True)
    await asyncio.sleep(3600)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        asyncio.run(serve(int(sys.argv[2])))
    elif sys.argv[1] == "flood":
        asyncio.run(flood(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    else:
        asyncio.run(join(sys.argv[2], int(sys.argv[3])))
