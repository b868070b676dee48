"""The `coldwater` command: the app with no arguments, plus headless tools.

This module is the parser and the dispatch; each headless command lives beside what it
runs and imports no Textual (net/play/commands.py: simulate, review, replay; net/replay.py:
a LAN verdict record; net/cli.py: host and join with ``--headless``).

- ``coldwater``                      open the app
- ``coldwater simulate GAME ...``    bots play whole games; scores and digests
- ``coldwater replay FILE``          verify a game record
- ``coldwater review FILE``          the costliest decisions of a game (see docs/coach.md)
- ``coldwater host GAME ...`` / ``coldwater join NAME|HOST:PORT``   LAN play
- ``coldwater serve ...``            the app over SSH (see :mod:`coldwater.tui.serve`)
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from coldwater import __version__
from coldwater.net.play.cliargs import UsageError, fail, parse_options, parse_seats

if TYPE_CHECKING:
    from coldwater.net.party import Party


def _parser() -> argparse.ArgumentParser:
    from coldwater.core import games

    p = argparse.ArgumentParser(prog="coldwater", description="Cold-water board games in the terminal.")
    p.add_argument("--version", action="version", version=f"coldwater {__version__}")
    p.add_argument("--theme", help="colour theme: dark, light or ansi (NO_COLOR is honoured)")
    sub = p.add_subparsers(dest="command")

    sim = sub.add_parser("simulate", help="bots play whole games; prints scores and final digests")
    sim.add_argument("game", choices=games.names())
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--seed", default="0")
    sim.add_argument(
        "--bot",
        default="random",
        help="bot for every seat (random, greedy, easy, normal, hard), or one per seat: hard,easy",
    )
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. no_tags=true (repeatable)",
    )
    sim.add_argument("--module", help="the game's module, where it has several (the same as --option module=NAME)")
    sim.add_argument("--solo-level", type=int, help="the solo level, where the game's solo mode has levels")
    sim.add_argument("--json", action="store_true", help="one JSON object per game")
    sim.add_argument("--content", metavar="PATH", help="your own content file (the printed card values)")
    sim.add_argument("--records", metavar="DIR", help="write each game's record into DIR (Replays reads them)")

    rep = sub.add_parser("replay", help="replay a game record and check every entry")
    rep.add_argument("file")
    rep.add_argument("--content", metavar="PATH", help="the content file the record was made with")

    rev = sub.add_parser(
        "review",
        help="review a game record: the costliest decisions of each seat, from that seat's view",
        description="Review a game record: for each decision of a seat, what the choice made cost "
        "against the best alternatives the search finds, from what that seat knew then.",
    )
    rev.add_argument("file")
    rev.add_argument("--seat", type=int, help="the seat to review, 1-based (default: every seat)")
    rev.add_argument("--json", action="store_true", help="one JSON object per reviewed seat")
    rev.add_argument("--depth", type=int, default=1, help="1 is the default budget; D is D times the worlds and time")
    rev.add_argument("--seed", default="0", help="the review's own seed (the same seed and depth give the same review)")
    rev.add_argument("--worst", type=int, default=10, help="how many of the costliest decisions to list")
    rev.add_argument("--content", metavar="PATH", help="the content file the record was made with")

    host = sub.add_parser(
        "host", help="host a LAN table", description="Host a LAN table. `coldwater host GAME --help` lists its options."
    )
    host.add_argument("game", choices=games.names())
    host.add_argument("rest", nargs=argparse.REMAINDER)
    join = sub.add_parser(
        "join",
        help="join a LAN table by name or HOST:PORT",
        description="Join a LAN table. `coldwater join TARGET --help` lists its options.",
    )
    join.add_argument("target")
    join.add_argument("rest", nargs=argparse.REMAINDER)
    serve = sub.add_parser(
        "serve",
        help="serve the app over SSH to friends with nothing but ssh",
        description="Serve the app over SSH. `coldwater serve --help` lists its options.",
        add_help=False,
    )
    serve.add_argument("rest", nargs=argparse.REMAINDER)
    return p


def lan_app(args: argparse.Namespace) -> int:
    """``coldwater host|join`` without ``--headless``: the app, opened straight into the lobby."""
    from coldwater import net
    from coldwater.core import games
    from coldwater.net import cli as net_cli
    from coldwater.net.cli import name_rule
    from coldwater.tui.app import ColdwaterApp

    parser = net_cli.host_parser() if args.command == "host" else net_cli.join_parser()
    ns = parser.parse_args(args.rest)
    others: list[str] = []
    options: dict[str, Any] = {}
    if args.command == "host":
        try:  # before the app opens, so a typo is a message here, not an app that fails to start
            if ns.no_seat:  # the app is where a person plays: a table server runs headless
                raise UsageError("--no-seat hosts with nobody at this terminal: add --headless")
            others = parse_seats(ns.seats, ns.players)
            options = parse_options(ns.option)
            name_rule(ns)  # a message here, never a traceback from zeroconf
            if (ns.turn_timer is not None and ns.turn_timer < 0) or (ns.time_bank is not None and ns.time_bank < 0):
                raise UsageError("the turn timer and the time bank are numbers of seconds, 0 for none")
        except UsageError as e:
            return fail(e)

    async def start() -> tuple[Party, bool]:
        if args.command == "host":
            game = games.get(args.game)
            host = await net.open_table(
                game,
                name=ns.name,
                seats=["host", *others],
                options=options,
                passphrase=ns.passphrase,
                host_name=ns.player_name or "Host",
                port=ns.port,
                bind=ns.bind,
                advertise=not ns.no_advertise,
                watchers=0 if ns.no_watchers else ns.max_watchers,
                dealer=ns.dealer,
            )
            net_cli.set_clock(host, ns)  # (as --headless does: it travels in the table info)
            return host, True
        if ns.watch:
            watcher = await net.watch_table(
                args.target,
                name=ns.player_name or "Guest",
                passphrase=ns.passphrase,
                find_timeout=ns.find_timeout,
                fingerprint=ns.fingerprint,
            )
            return watcher, False
        peer = await net.join_table(
            args.target,
            name=ns.player_name or "Guest",  # as the app's Join form says (not the net layer's "peer-ab12")
            passphrase=ns.passphrase,
            bind=ns.bind,
            find_timeout=ns.find_timeout,
            fingerprint=ns.fingerprint,
        )
        return peer, False

    ColdwaterApp(lan_start=start).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["serve"]:
        # argparse cannot hand a sub-command's leading options through REMAINDER,
        # so serve parses its own arguments.
        from coldwater.tui import serve

        return serve.main(argv[1:])
    args = _parser().parse_args(argv)
    if args.command in ("simulate", "review"):
        from coldwater.net.play import commands

        try:
            return commands.simulate(args) if args.command == "simulate" else commands.review(args)
        except BrokenPipeError:
            # The reader (e.g. `| head`) went away: stop quietly, as Unix tools do.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    if args.command == "replay":
        from coldwater.net.replay import replay

        return replay(args.file, args.content)
    if args.command in ("host", "join") and "--headless" in args.rest:
        from coldwater.net import cli as net_cli

        return net_cli.main(args)  # takes the data-folder lock itself
    from coldwater.net.play.paths import DataFolderBusy, DataLock
    from coldwater.tui.serve.applink import die_with_server
    from coldwater.tui.termcaps import cannot_run

    if (problem := cannot_run(os.environ)) is not None:
        print(problem, file=sys.stderr)
        return 1

    die_with_server()  # a no-op outside `coldwater serve`
    try:
        # One data folder is one identity: a second app on it would fight the first for its seats.
        lock = DataLock()
    except DataFolderBusy as e:
        print(f"coldwater: {e}", file=sys.stderr)
        return 1
    with lock:
        if args.command in ("host", "join"):
            return lan_app(args)
        from coldwater.tui.app import run

        return run(theme=args.theme)


if __name__ == "__main__":
    raise SystemExit(main())
