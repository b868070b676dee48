"""A stranger on the LAN guessing a table's passphrase as fast as the table answers (issue 44, break 7).

``python -m tests.net.guesser HOST:PORT SECONDS [ADDR ...]``: tries a new wrong passphrase (a fresh
key each time, from each local ADDR in turn) for SECONDS, then prints ONE JSON line: how many tries
were answered "wrong", and how many throttled.
"""

from __future__ import annotations

import asyncio
import json
import sys

from coldwater.core import games
from coldwater.net.identity import Identity
from coldwater.net.transport import Refusal, Throttled, WrongPassphrase, connect


async def _main(target: str, seconds: float, addrs: list[str]) -> None:
    host, _, port = target.rpartition(":")
    crown = games.get("crown")
    wrong = throttled = other = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    i = 0
    while loop.time() < end:
        i += 1
        try:
            conn, _ = await connect(
                host,
                int(port),
                Identity.generate(),
                "crown",
                crown.content_hash,
                passphrase=f"x{i}",
                local_addr=addrs[i % len(addrs)] if addrs else None,
            )
            await conn.close()
            other += 1
        except Throttled:
            throttled += 1
        except WrongPassphrase:
            wrong += 1
        except Refusal:
            other += 1
        except OSError:
            other += 1
        await asyncio.sleep(0.02)
    print(json.dumps({"wrong": wrong, "throttled": throttled, "other": other}), flush=True)


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], float(sys.argv[2]), sys.argv[3:]))
