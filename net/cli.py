"""``coldwater host GAME ...`` and ``coldwater join NAME|HOST:PORT ...``.

With ``--headless --bot`` the seat is played by the game's bot, nothing is
drawn, and at the end ONE JSON line goes to stdout: the final scores and the
final digest (of the full position, every sealed value revealed, which every
peer computes by its own audit). Exit status 0 when the game finished and the
audit passed, 1 when it did not, 2 for a usage error or the interactive app
(which the TUI wires up). Logs (every refusal with its reason) go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from coldwater.core import games

from . import paths
from .discovery import Advertiser, TableBrowser
from .identity import load_or_create
from .session import Result, TableHost, TablePeer, bot_chooser
from .transport import Refusal, probe

log = logging.getLogger("coldwater.net")


def _host_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="coldwater host", description="Host a LAN table.")
    p.add_argument("--name", required=True, help="the table's name, as others see it")
    p.add_argument("--players", type=int, help="number of seats (default: 1 + the --seats given, else 2)")
    p.add_argument("--seats", help="the other seats after yours: open,bot,... (default: all open)")
    p.add_argument("--passphrase", help="only peers who know it can join")
    p.add_argument("--port", type=int, default=0, help="TCP port (default: any free port)")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (repeatable)")
    p.add_argument("--no-advertise", action="store_true", help="do not announce the table with zeroconf")
    _common(p)
    return p


def _join_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="coldwater join", description="Join a LAN table by name or HOST:PORT.")
    p.add_argument("--passphrase", help="the table's passphrase, if it has one")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (to take over if the host leaves)")
    p.add_argument("--find-timeout", type=float, default=15.0, help="seconds to look for the table by name")
    _common(p)
    return p


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--headless", action="store_true", help="no UI: print one JSON line at the end")
    p.add_argument("--bot", nargs="?", const="", default=None, metavar="BOT", help="let the game's bot play this seat")
    p.add_argument("--player-name", default="", help="your name at the table")
    p.add_argument("--timeout", type=float, default=None, help="give up after this many seconds (scripts, CI)")
    p.add_argument("--game-module", help=argparse.SUPPRESS)  # tests: a module exposing GAME
    p.add_argument("--think", type=float, default=0.0, help=argparse.SUPPRESS)  # tests: slow bots down
    p.add_argument("--stats", action="store_true", help=argparse.SUPPRESS)  # benchmarks: timings and bytes
    p.add_argument("--log-level", default="WARNING")


def _game(name: str, module: str | None) -> Any:
    if module:
        game = importlib.import_module(module).GAME
        if game.name != name:
            raise SystemExit(f"coldwater: {module} plays {game.name!r}, not {name!r}")
        return game
    try:
        return games.get(name)
    except KeyError as e:
        raise SystemExit(f"coldwater: {e.args[0]}") from None


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"coldwater: --option wants KEY=VALUE, got {pair!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def _print_result(res: Result, extra: dict[str, Any]) -> None:
    line = {"game": res.game, "table": res.table, "seat": res.seat, "scores": res.scores, "digest": res.digest,
            "plies": res.plies, "outcome": res.outcome, "audit": "ok" if res.audit_ok else res.problems, **extra}
    print(json.dumps(line, sort_keys=True), flush=True)


def _interactive() -> int:
    print("coldwater: the app's LAN lobby is coming; use --headless --bot for now", file=sys.stderr)
    return 2


async def _host(game: Any, ns: argparse.Namespace) -> int:
    others = [s.strip() for s in ns.seats.split(",")] if ns.seats else None
    players = ns.players or (1 + len(others) if others else 2)
    if others is None:
        others = ["open"] * (players - 1)
    if len(others) != players - 1 or any(s not in ("open", "bot") for s in others):
        print(f"coldwater: --seats must list {players - 1} seats, each open or bot", file=sys.stderr)
        return 2
    if ns.bot not in (None, "") and ns.bot not in game.bots:
        print(f"coldwater: unknown bot {ns.bot!r}; {game.title} has {', '.join(game.bots)}", file=sys.stderr)
        return 2
    identity = load_or_create()
    adv: Advertiser | None = None

    async def ready(h: TableHost) -> None:
        nonlocal adv
        log.info("table %r listening on port %d", h.name, h.port)
        if not ns.no_advertise:
            adv = Advertiser(table=h.name, game=game.name, content=game.content_hash, port=h.port,
                             fingerprint=identity.fingerprint,
                             addresses=None if ns.bind in ("0.0.0.0", "") else [ns.bind])
            h.on_seats_changed(adv.update_soon)
            await adv.start(h.open_seats)

    try:
        host = TableHost(game, identity, name=ns.name, seats=["host", *others], options=_options(ns.option),
                         passphrase=ns.passphrase, chooser=bot_chooser(game, ns.bot or None, think=ns.think),
                         host_name=ns.player_name or "host", bind=ns.bind, port=ns.port,
                         save_dir=paths.data_dir() / "lan", listener_ready=ready)
    except ValueError as e:
        print(f"coldwater: {e}", file=sys.stderr)
        return 2
    try:
        res = await host.run()
    finally:
        if adv is not None:
            await adv.close()
    extra: dict[str, Any] = {"role": "host", "refused": len(host.refusals)}
    if ns.stats:
        extra["stats"] = {"bytes_out": sum(r.bytes_out for r in host.traffic),
                          "bytes_in": sum(r.bytes_in for r in host.traffic)}
    _print_result(res, extra)
    return 0


def _split_target(target: str) -> tuple[str, int] | None:
    host, sep, port = target.rpartition(":")
    if sep and host and port.isdigit():
        return host.strip("[]"), int(port)
    return None


async def _join(ns: argparse.Namespace, target: str) -> int:
    addr = _split_target(target)
    saved_dir = paths.data_dir() / "lan"
    identity = load_or_create()
    if addr is None:
        browser = TableBrowser()
        await browser.start()
        try:
            listing = await browser.find(target, ns.find_timeout)
        finally:
            await browser.close()
        if listing is None:
            print(f"coldwater: no table named {target!r} found on the LAN (try HOST:PORT)", file=sys.stderr)
            return 1
        host, port, game_name = listing.host, listing.port, listing.game
        table_name = listing.table
    else:
        host, port = addr
        try:
            game_name, _, _ = await probe(host, port)
        except Refusal as e:
            print(f"coldwater: {e}", file=sys.stderr)
            return 1
        table_name = ""
    game = _game(game_name, ns.game_module)
    peer = TablePeer(game, identity, name=ns.player_name or f"peer-{identity.fingerprint[:4]}",
                     passphrase=ns.passphrase, chooser=bot_chooser(game, ns.bot or None, think=ns.think), save_dir=saved_dir,
                     bind=ns.bind)
    resume = None
    if table_name:
        p = saved_dir / f"lan-peer-{''.join(c if c.isalnum() or c in '-_' else '_' for c in table_name)[:60]}.json"
        resume = TablePeer.load_save(p) if p.exists() else None
    if resume is not None:
        log.warning("resuming our saved game at %s (ply %d)", table_name, len(resume.steps))
    try:
        await peer.join(host, port, resume=resume)
        res = await peer.run()
    except Refusal as e:
        print(f"coldwater: {e}", file=sys.stderr)
        return 1
    extra = {"role": "peer", "resyncs": peer.resyncs, "host_changes": peer.host_changes}
    if ns.stats:
        extra["stats"] = {"rtts_ms": [round(x * 1000, 3) for x in peer.rtts],
                          "seated_ms": round(((peer.seated_at or 0) - (peer.joined_at or 0)) * 1000, 3)}
    _print_result(res, extra)
    return 0 if res.audit_ok else 1


def main(args: argparse.Namespace) -> int:
    """Entry from ``coldwater host|join`` (tui/cli.py): args has .command, .game or .target, and .rest."""
    if args.command == "host":
        ns = _host_parser().parse_args(args.rest)
    else:
        ns = _join_parser().parse_args(args.rest)
    logging.basicConfig(level=getattr(logging, str(ns.log_level).upper(), logging.WARNING), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(message)s")
    if not ns.headless or ns.bot is None:
        return _interactive()

    async def go() -> int:
        if args.command == "host":
            return await _host(_game(args.game, ns.game_module), ns)
        return await _join(ns, args.target)

    async def bounded() -> int:
        try:
            return await asyncio.wait_for(go(), ns.timeout)
        except asyncio.TimeoutError:
            print(f"coldwater: gave up after {ns.timeout} s", file=sys.stderr)
            return 1

    try:
        return asyncio.run(bounded())
    except KeyboardInterrupt:
        return 130


def run(argv: Sequence[str] | None = None) -> int:
    """``python -m coldwater.net.cli host GAME ...`` (tests use it to host the toy game)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) < 2 or argv[0] not in ("host", "join"):
        print("usage: python -m coldwater.net.cli host GAME ... | join NAME|HOST:PORT ...", file=sys.stderr)
        return 2
    ns = argparse.Namespace(command=argv[0], rest=argv[2:])
    if argv[0] == "host":
        ns.game = argv[1]
    else:
        ns.target = argv[1]
    return main(ns)


if __name__ == "__main__":
    raise SystemExit(run())
