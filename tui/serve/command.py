"""`coldwater serve`: the command that runs a server until it is stopped, or one of the host's commands.

``main`` is what ``coldwater serve ...`` runs (tui/cli.py hands it the arguments after ``serve``):
``--backup`` and ``--ratings`` run on the server's data and start nothing (admin.py); anything else
is a server's configuration (config.py), and the server runs until SIGINT, SIGTERM or SIGHUP.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Sequence

from coldwater.tui.serve import admin, database
from coldwater.tui.serve.config import ServeConfig, parse_args
from coldwater.tui.serve.server import SHUTDOWN_REASON, Server


async def serve_forever(config: ServeConfig) -> None:
    server = Server(config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # Before the first connection can be made: a stop from then on is a clean one (whoever read the
    # "listening" line may stop the server at once).
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # SIGHUP: the terminal it ran in closed
        loop.add_signal_handler(sig, stop.set)
    port = await server.start()
    try:
        where = config.bind or "every interface"
        print(f"coldwater serve: listening on {where}, port {port}", flush=True)
        print(f"host key fingerprint: {server.host_fingerprint} (friends see it on first connect)", flush=True)
        print(f"connect with: ssh -p {port} play@THIS-HOST", flush=True)
        await stop.wait()
    finally:
        print("coldwater serve: stopping; every session is told so and given its terminal back", flush=True)
        await server.close(SHUTDOWN_REASON)


def main(argv: Sequence[str]) -> int:
    if (status := admin.command(argv)) is not None:
        return status  # --backup, --ratings: the host's commands on the server's data, no server started
    try:
        config = parse_args(argv)
        asyncio.run(serve_forever(config))
    except ValueError as e:
        print(f"coldwater serve: {e}", file=sys.stderr)
        return 2
    except database.StoreError as e:
        print(f"coldwater serve: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"coldwater serve: cannot listen: {e}", file=sys.stderr)
        return 1
    return 0
