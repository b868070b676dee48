"""``coldwater host GAME ...`` and ``coldwater join NAME|HOST:PORT ...``.

With ``--headless --bot`` the seat is played by the game's bot, nothing is
drawn, and at the end ONE JSON line goes to stdout: the final scores and the
final digest (of the full position, every sealed value revealed, which every
peer computes by its own audit). Exit status 0 when the game finished and the
audit passed, 1 when it did not, 2 for a usage error or the interactive app
(which the TUI wires up). Logs (every refusal with its reason) go to stderr.

``join --watch --headless`` watches instead (the public view only): a line per
move as it is played, who comes and goes, the final scores, then the same kind
of JSON line (``"role": "watcher"``, the final *public* digest). Exit status 0
when it saw the game end, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from coldwater import __version__
from coldwater.core import games
from coldwater.core.state import Game, State

from . import messages as m
from .fairdeal.seat import WIRED
from .fairplay import has_sealed_values
from .known_hosts import normalise_fingerprint
from .lan import join_table, keep_record, open_table, watch_table
from .names import PLAYER_NAME_BYTES, BadName, check_name
from .play.cliargs import UsageError, fail, parse_options, parse_seats
from .play.paths import DataFolderBusy, DataLock
from .session import Event, Result, TableHost, bot_chooser
from .session.fairtable import FairDriver
from .session.host.spectators import MAX_WATCHERS, WATCHERS
from .transport import Refusal

log = logging.getLogger("coldwater.net")


def _titles(names: Iterable[str]) -> str:
    """Games by title, in menu order (the registry's)."""
    return " and ".join(games.get(n).title for n in games.names() if n in set(names))


def _public_only() -> list[str]:
    """Games with no hidden values: every draw at their tables is public."""
    return [n for n in games.names() if not has_sealed_values(games.get(n))]


def host_parser() -> argparse.ArgumentParser:
    """The options of ``coldwater host``; the app's lobby reads the same ones (tui/cli.py)."""
    p = argparse.ArgumentParser(prog="coldwater host", description="Host a LAN table.")
    p.add_argument("--name", required=True, help="the table's name, as others see it")
    p.add_argument("--players", type=int, help="number of seats (default: 1 + the --seats given, else 2)")
    p.add_argument(
        "--seats",
        help="the other seats after yours: open, bot or reserved:FINGERPRINT, comma-separated (default: all open)",
    )
    p.add_argument(
        "--no-seat",
        action="store_true",
        help="with --headless: host without a seat of your own (a table server): --players and --seats "
        "then name every seat, and the game starts once they are all taken and ready",
    )
    p.add_argument(
        "--passphrase",
        help="only peers who know it can join; 'generate' makes one of four plain words and prints it",
    )
    p.add_argument("--port", type=int, default=0, help="TCP port (default: any free port)")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (repeatable)")
    p.add_argument("--no-advertise", action="store_true", help="do not announce the table with zeroconf")
    p.add_argument("--no-watchers", action="store_true", help="let nobody watch the game (default: anyone may)")
    p.add_argument("--hints", action="store_true", help="every seat may ask for the coach's hint, h (default: off)")
    p.add_argument(
        "--max-watchers",
        type=int,
        default=WATCHERS,
        metavar="N",
        help=f"the most people who may watch at once (default {WATCHERS}, at most {MAX_WATCHERS})",
    )
    p.add_argument(
        "--dealer",
        choices=("fair", "committed"),
        default=None,
        help=f"who deals hidden values: fair (the default where it is wired, {_titles(WIRED)}: nobody, the host "
        "included, sees a hidden value; bot seats run on the host, which sees their hands) or committed (the "
        f"host's program deals; the audit catches changes, not peeking). {_titles(_public_only())} hides "
        "nothing: public draws",
    )
    p.add_argument(
        "--turn-timer",
        type=int,
        default=None,
        metavar="S",
        help="seconds a seat has for each move before its time bank drains (default 180, 0 for no clock); "
        "a seat out of time is played by a bot if its player is gone, else the others may hand it to one",
    )
    p.add_argument(
        "--time-bank",
        type=int,
        default=None,
        metavar="S",
        help="seconds each seat may spend past the turn timer over the whole game (default 300)",
    )
    p.add_argument(
        "--game-time",
        type=int,
        default=None,
        metavar="S",
        help="seconds each seat may think over the whole game, every move counted (default 5400, 90 minutes; "
        "0 for no such limit); spent, the seat is out of time",
    )
    p.add_argument(
        "--strict-clock",
        action="store_true",
        help="a bot plays a seat as soon as its time is out, even while its player is connected",
    )
    _common(p)
    return p


def set_clock(host: TableHost, ns: argparse.Namespace) -> None:
    """The table's clock as `--turn-timer`, `--time-bank`, `--game-time` and `--strict-clock` say
    (ValueError if wrong)."""
    turn = host.info.turn if ns.turn_timer is None else ns.turn_timer
    host.set_turn_timer(turn, bank=ns.time_bank, strict=True if ns.strict_clock else None, game_time=ns.game_time)


def join_parser() -> argparse.ArgumentParser:
    """The options of ``coldwater join``; the app's lobby reads the same ones (tui/cli.py)."""
    p = argparse.ArgumentParser(prog="coldwater join", description="Join a LAN table by name or HOST:PORT.")
    p.add_argument("--passphrase", help="the table's passphrase, if it has one")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (to take over if the host leaves)")
    p.add_argument("--find-timeout", type=float, default=15.0, help="seconds to look for the table by name")
    p.add_argument(
        "--fingerprint",
        metavar="FP",
        type=_fingerprint,
        help="only join a table that proves this key (ask the host; e.g. ab12-cd34-ef56-7890)",
    )
    p.add_argument(
        "--watch",
        action="store_true",
        help="watch the game instead of taking a seat (the public view only; with --headless, "
        "print each move and the final scores)",
    )
    _common(p)
    return p


def _fingerprint(text: str) -> str:
    try:
        return normalise_fingerprint(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--headless", action="store_true", help="no UI: print one JSON line at the end")
    p.add_argument("--bot", nargs="?", const="", default=None, metavar="BOT", help="let the game's bot play this seat")
    p.add_argument("--player-name", default="", help="your name at the table")
    p.add_argument("--timeout", type=float, default=None, help="give up after this many seconds (scripts, CI)")
    p.add_argument("--game-module", help=argparse.SUPPRESS)  # tests: a module exposing GAME
    p.add_argument("--think", type=float, default=0.0, help=argparse.SUPPRESS)  # tests: slow bots down
    p.add_argument("--stats", action="store_true", help=argparse.SUPPRESS)  # benchmarks: timings and bytes
    p.add_argument("--log-level", default="WARNING")


def _game(name: str, module: str | None) -> Game[Any, Any]:
    if module:
        game = games.from_module(module)
        if game.name != name:
            raise SystemExit(f"coldwater: {module} plays {game.name!r}, not {name!r}")
        return game
    try:
        return games.get(name)
    except KeyError as e:
        raise SystemExit(f"coldwater: {e.args[0]}") from None


def _status(res: Result) -> int:
    """The exit status of a seat's run: 0 a game played to its audited end, 2 a game ended by an agreed
    forfeit (every seat but the accused signed; the standings are the result), 1 anything else (a
    contested forfeit included: the JSON line says who disputed it)."""
    if res.audit_ok:
        return 0
    return 2 if res.forfeit and res.signed_by and not res.contested else 1


def _print_result(res: Result, extra: dict[str, Any]) -> None:
    line = {
        "game": res.game,
        "table": res.table,
        "seat": res.seat,
        "scores": res.scores,
        "digest": res.digest,
        "plies": res.plies,
        "outcome": res.outcome,
        "audit": "ok" if res.audit_ok else res.problems,
        "app": f"coldwater {__version__}",
        "contested": res.contested,
        "disputed_by": res.disputed_by,
        **({"forfeit": res.forfeit, "verdict": res.verdict, "signed_by": res.signed_by} if res.forfeit else {}),
        **extra,
    }
    print(json.dumps(line, sort_keys=True), flush=True)


def _interactive() -> int:
    print(
        "coldwater: --headless needs --bot (nobody is at the keyboard to play the seat); "
        "without --headless the app opens the lobby",
        file=sys.stderr,
    )
    return 2


def name_rule(ns: argparse.Namespace) -> None:
    """`coldwater host`'s --name and --player-name against the name rule (net/names.py); UsageError if not."""
    for flag, text, what, limit in (
        ("--name", ns.name, "table name", None),
        ("--player-name", ns.player_name or "host", "player name", PLAYER_NAME_BYTES),
    ):
        try:
            check_name(text, what=what) if limit is None else check_name(text, what=what, limit=limit)
        except BadName as e:
            raise UsageError(f"{flag}: {e}") from None


def _fair_stats(drv: FairDriver | None) -> dict[str, Any]:
    """A fair-dealer table's figures for benchmarks: setup time and each private deal's latency here."""
    if drv is None:
        return {}
    return {
        "setup_ms": round((drv.setup_s or 0.0) * 1000, 3),
        "deal_ms": [round(x * 1000, 3) for x in drv.deal_s],
    }


async def _host(game: Game[Any, Any], ns: argparse.Namespace) -> int:
    try:
        if ns.no_seat:
            if ns.bot is not None:
                raise UsageError("--bot plays the host's seat; with --no-seat there is none")
            # Every seat is named by --players / --seats: one more than "the seats after yours".
            players = ns.players if ns.players is not None else (None if ns.seats else 2)
            if players is not None and players < 1:
                raise UsageError(f"--players must be at least 1, got {players}")
            seats = parse_seats(ns.seats, players + 1 if players is not None else None)
        else:
            seats = ["host", *parse_seats(ns.seats, ns.players)]
        options = parse_options(ns.option)
        name_rule(ns)
    except UsageError as e:
        return fail(e)
    if ns.bot not in (None, "") and ns.bot not in game.bots:
        print(f"coldwater: unknown bot {ns.bot!r}; {game.title} has {', '.join(game.bots)}", file=sys.stderr)
        return 2
    if ns.passphrase == "generate":
        from .passphrase import generate

        ns.passphrase = generate()
        print(f"coldwater: the table's passphrase is: {ns.passphrase}", file=sys.stderr, flush=True)
    try:
        host = await open_table(
            game,
            name=ns.name,
            seats=seats,
            options=options,
            passphrase=ns.passphrase,
            chooser=None if ns.no_seat else bot_chooser(game, ns.bot or None, think=ns.think),
            auto_start=True,  # once every seat is taken and ready (nobody at this terminal presses Start)
            host_name=ns.player_name or "host",
            port=ns.port,
            bind=ns.bind,
            advertise=not ns.no_advertise,
            watchers=0 if ns.no_watchers else ns.max_watchers,
            dealer=ns.dealer,
            hints=ns.hints,
        )
    except (ValueError, OSError) as e:
        print(f"coldwater: {e}", file=sys.stderr)
        return 2
    if ns.turn_timer is not None or ns.time_bank is not None or ns.strict_clock or ns.game_time is not None:
        try:
            set_clock(host, ns)
        except ValueError as e:
            print(f"coldwater: {e}", file=sys.stderr)
            await host.close()
            return 2
    log.info(
        "table %r listening on port %d (turn timer %s; %s)",
        host.name,
        host.port,
        f"{host.info.turn} s, bank {host.info.bank} s, game {host.info.game_time} s"
        f"{', strict' if host.info.strict else ''}"
        if host.info.turn
        else "off",
        m.build_label(),
    )
    res = await host.run()
    if host.fair_host.replaced_by >= 0 and not ns.no_seat:
        return await _rejoin(game, ns, host)
    extra: dict[str, Any] = {
        "role": "host",
        "refused": len(host.refusals),
        "host_fingerprint": host.identity.fingerprint,
        "record": keep_record(res, host),
    }
    if ns.stats:
        extra["stats"] = {
            "bytes_out": sum(r.bytes_out for r in host.traffic),
            "bytes_in": sum(r.bytes_in for r in host.traffic),
            **_fair_stats(host.fair_host.fair),
        }
    _print_result(res, extra)
    return 0


async def _rejoin(game: Game[Any, Any], ns: argparse.Namespace, host: TableHost) -> int:
    """A fair table's host that woke to find another seat hosting (failover): its seat rejoins as a peer,
    from its save (the same identity, the same data folder); the result printed is that seat's."""
    log.warning("the table moved to seat %d; our seat rejoins it from its save", host.fair_host.replaced_by + 1)
    try:
        peer = await join_table(
            host.name,
            identity=host.identity,
            name=ns.player_name or "host",
            passphrase=ns.passphrase,
            game=game,
            bind=ns.bind,
            chooser=lambda g: bot_chooser(g, ns.bot or None, think=ns.think),
            save_dir=host.save_dir,
        )
        res = await peer.run()
    except Refusal as e:
        print(f"coldwater: {e}", file=sys.stderr)
        return 1
    extra: dict[str, Any] = {
        "role": "peer",
        "host_changes": peer.host_changes + 1,
        "host_fingerprint": peer.host_fingerprint,
        "record": keep_record(res, peer),
    }
    _print_result(res, extra)
    return _status(res)


async def _join(ns: argparse.Namespace, target: str) -> int:
    game = None
    if ns.game_module:
        game = games.from_module(ns.game_module)
    try:
        peer = await join_table(
            target,
            name=ns.player_name,
            passphrase=ns.passphrase,
            game=game,
            bind=ns.bind,
            chooser=lambda g: bot_chooser(g, ns.bot or None, think=ns.think),
            find_timeout=ns.find_timeout,
            fingerprint=ns.fingerprint,
        )
        log.info("seated at seat %d of %r", peer.seat + 1, peer.info.name if peer.info else target)
        if peer.saves.save is not None:
            ply = peer.state.ply if peer.state is not None else len(peer.record.steps)  # a fair seat keeps no steps
            log.warning("resuming our saved game at %s (ply %d)", peer.info.name if peer.info else "?", ply)
        res = await peer.run()
    except Refusal as e:
        print(f"coldwater: {e}", file=sys.stderr)
        return 1
    # The key the host proved in the handshake, not what any message from it claims.
    extra: dict[str, Any] = {
        "role": "peer",
        "resyncs": peer.checker.resyncs,
        "host_changes": peer.host_changes,
        "host_fingerprint": peer.host_fingerprint,
        "record": keep_record(res, peer),
    }
    if ns.stats:
        extra["stats"] = {
            "rtts_ms": [round(x * 1000, 3) for x in peer.checker.rtts],
            "seated_ms": round(((peer.seated_at or 0) - (peer.joined_at or 0)) * 1000, 3),
            **_fair_stats(peer.fair_peer.fair),
        }
    _print_result(res, extra)
    return _status(res)


async def _watch(ns: argparse.Namespace, target: str) -> int:
    from coldwater.core.state import CHANCE

    game = None
    if ns.game_module:
        game = games.from_module(ns.game_module)
    try:
        watcher = await watch_table(
            target,
            name=ns.player_name,
            passphrase=ns.passphrase,
            game=game,
            find_timeout=ns.find_timeout,
            fingerprint=ns.fingerprint,
        )
    except Refusal as e:
        print(f"coldwater: {e}", file=sys.stderr)
        return 1
    info = watcher.info
    assert info is not None
    print(f"watching {info.name!r} ({watcher.game.title}, {info.players} players)", flush=True)
    names: dict[int, str] = {}
    before: list[State[Any, Any] | None] = [None]
    """The public view before the step being printed (to describe it in words)."""

    def say(text: str) -> None:
        # Names, chat and moves come from other people: no terminal control sequences get through.
        print("".join(c if c.isprintable() else "?" for c in text), flush=True)

    def who(seat: int) -> str:
        return "chance" if seat == CHANCE else f"{names.get(seat) or f'Seat {seat + 1}'}"

    def on(ev: Event) -> None:
        from .session import ChatReceived, GameStarted, LobbyChanged, PresenceChanged, StepApplied

        if isinstance(ev, LobbyChanged):
            fresh = {s.seat: s.name for s in ev.seats if s.name}
            if fresh != names:
                names.clear()
                names.update(fresh)
                say("seats: " + " · ".join(f"{s.seat + 1} {s.name or s.kind}" for s in ev.seats))
        elif isinstance(ev, GameStarted):
            say("the game is on")
        elif isinstance(ev, StepApplied):
            text = "(sealed: only its owner sees it)" if ev.action is None else ev.action
            prev = before[0]
            if ev.action is not None and prev is not None and prev.ply == ev.ply - 1:
                try:
                    text = prev.describe(watcher.game.parse_action(ev.action))
                except Exception:  # words are a nicety; the notation is the record
                    pass
            say(f"{ev.ply:4d}  {who(ev.seat)}: {text}")
        elif isinstance(ev, PresenceChanged):
            say(f"{who(ev.seat)} is {'away' if ev.away else 'back'}")
        elif isinstance(ev, ChatReceived):
            say(f"chat {ev.name}: {ev.text}")
        st = watcher.state
        before[0] = st.clone() if st is not None and isinstance(ev, StepApplied | GameStarted) else before[0]

    watcher.subscribe(on)
    try:
        res = await watcher.run()
    except Refusal as e:
        print(f"coldwater: {e}", file=sys.stderr)
        return 1
    if res.scores:
        say("final scores: " + " · ".join(f"{k} {v}" for k, v in res.scores.items()))
    say(res.outcome)
    _print_result(res, {"role": "watcher", "resyncs": watcher.resyncs, "host_fingerprint": watcher.host_fingerprint})
    return 0 if res.audit_ok and res.scores else 1


def main(args: argparse.Namespace) -> int:
    """Entry from ``coldwater host|join`` (tui/cli.py): args has .command, .game or .target, and .rest."""
    if args.command == "host":
        ns = host_parser().parse_args(args.rest)
    else:
        ns = join_parser().parse_args(args.rest)
    logging.basicConfig(
        level=getattr(logging, str(ns.log_level).upper(), logging.WARNING),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(message)s",
    )
    watching = args.command == "join" and ns.watch
    seatless = args.command == "host" and ns.no_seat  # nobody to play for: nothing is asked here
    if not ns.headless or (ns.bot is None and not watching and not seatless):
        return _interactive()
    if watching and ns.bot is not None:
        print("coldwater: --watch and --bot do not go together (a watcher has no seat to play)", file=sys.stderr)
        return 2

    async def go() -> int:
        if args.command == "host":
            return await _host(_game(args.game, ns.game_module), ns)
        if watching:
            return await _watch(ns, args.target)
        return await _join(ns, args.target)

    async def bounded() -> int:
        try:
            return await asyncio.wait_for(go(), ns.timeout)
        except TimeoutError:
            print(f"coldwater: gave up after {ns.timeout} s", file=sys.stderr)
            return 1

    lock: DataLock | None = None
    if not watching:
        # A watcher takes no seat and keeps no save: it may watch while the app plays elsewhere.
        try:
            lock = DataLock()
        except DataFolderBusy as e:
            print(f"coldwater: {e}", file=sys.stderr)
            return 1
    try:
        return asyncio.run(bounded())
    except KeyboardInterrupt:
        return 130
    finally:
        if lock is not None:
            lock.release()


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
