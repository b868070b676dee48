"""Helper processes for tests/net/test_edge_netns.py: a table that only handshakes, and a
joiner that reports how long an idle connection takes to notice the link went away."""

from __future__ import annotations

import asyncio
import sys
import time

from coldwater.net.identity import Identity
from coldwater.net.transport import Connection, Guard, accept, connect, listen


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


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        asyncio.run(serve(int(sys.argv[2])))
    else:
        asyncio.run(join(sys.argv[2], int(sys.argv[3])))
