"""Print the LAN's table list (one JSON line per change) until `name` has come and gone.

``python -m tests.net.watch_tables NAME SECONDS`` runs inside a test namespace.
"""

from __future__ import annotations

import asyncio
import json
import sys

from coldwater.net.discovery import Listing, TableBrowser


async def main(name: str, seconds: float) -> int:
    done = asyncio.Event()
    seen_it = False

    def changed(listings: list[Listing]) -> None:
        nonlocal seen_it
        rows = [[t.table, t.game, t.open_seats, t.v, t.watchers, t.running, t.watchable] for t in listings]
        print(json.dumps(rows), flush=True)
        here = any(t.table == name for t in listings)
        seen_it = seen_it or here
        if seen_it and not here:
            done.set()

    b = TableBrowser(on_change=changed)
    await b.start()
    print("[]", flush=True)  # ready
    try:
        await asyncio.wait_for(done.wait(), seconds)
    except TimeoutError:
        return 1
    finally:
        await b.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1], float(sys.argv[2]))))
