"""A table that answers every joiner's handshake properly, then sends a Welcome nested 5,000 deep
(issue 44, break 8): ``python -m tests.net.deep_table PORT SECONDS``."""

from __future__ import annotations

import asyncio
import sys

from coldwater.core import games
from coldwater.net import messages as m
from coldwater.net.admission import accept
from coldwater.net.identity import Identity

CROWN = games.get("crown")


def deep_welcome(depth: int) -> bytes:
    info = m.TableInfo(game="crown", name="Weir", players=2, content=CROWN.content_hash, options={"z": 1})
    base = m.encode(m.Welcome(seat=1, table=info))
    return base.replace(b"\x81\xa1z\x01", b"\x81\xa1z" + b"\x81\xa1a" * depth + b"\x80")


async def _main(port: int, seconds: float) -> None:
    me = Identity.generate()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = await accept(reader, writer, me, "crown", CROWN.content_hash, table="Weir")
        if conn is None:
            return
        try:
            await asyncio.wait_for(conn.recv(), 5)  # the joiner's Join
        except TimeoutError:
            pass
        conn.send_raw(conn.channel.seal(deep_welcome(5000)))
        await conn.drain()
        await asyncio.sleep(seconds)
        await conn.close()

    server = await asyncio.start_server(serve, "0.0.0.0", port)
    async with server:
        await asyncio.sleep(seconds)


if __name__ == "__main__":
    asyncio.run(_main(int(sys.argv[1]), float(sys.argv[2])))
