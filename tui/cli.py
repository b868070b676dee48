"""The `coldwater` command: the app with no arguments, plus headless tools.

- ``coldwater``                      open the app
- ``coldwater simulate GAME ...``    bots play whole games; scores and digests
- ``coldwater replay FILE``          verify a game record
- ``coldwater review FILE``          the costliest decisions of a game (see docs/coach.md)
- ``coldwater host GAME ...`` / ``coldwater join NAME|HOST:PORT``   LAN play
- ``coldwater serve ...``            the app over SSH (see :mod:`coldwater.tui.serve`)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from coldwater import __version__
from coldwater.net.play.cliargs import UsageError, fail, parse_options, parse_seats
from coldwater.net.play.files import read_content

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
    sim.add_argument("--module", help="Aquatica: goals or tribes")
    sim.add_argument("--solo-level", type=int, help="Aquatica Tribes Solo level 1-6")
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


def cmd_simulate(args: argparse.Namespace) -> int:
    from coldwater.core import games
    from coldwater.core.errors import ContentError
    from coldwater.core.simulate import seat_bots, simulate

    game = games.get(args.game)
    if args.content:
        try:
            game = game.with_content(read_content(args.content))
        except ContentError as e:
            print(f"coldwater: {e}", file=sys.stderr)
            return 2
    try:
        options = parse_options(args.option)
    except UsageError as e:
        return fail(e)
    options.update({k: v for k, v in {"module": args.module, "solo_level": args.solo_level}.items() if v is not None})
    try:
        game.check_players(args.players)
        game.make_options(options)
        game.new(args.players, seed=args.seed, options=options)  # setup-level checks (e.g. a solo level at 3 players)
        seat_bots(game, args.bot, args.players)
    except ValueError as e:
        print(f"coldwater: {e}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("coldwater: --games must be at least 1", file=sys.stderr)
        return 2

    out_dir = None
    if args.records:
        from pathlib import Path

        out_dir = Path(args.records)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            print(f"coldwater: {out_dir}: cannot make the folder ({e.strerror or e})", file=sys.stderr)
            return 2
    results = simulate(
        game, args.players, args.games, args.seed, bot=args.bot, options=options, records=out_dir is not None
    )
    progress = None
    if sys.stderr.isatty() and args.games > 1:
        from rich.progress import Progress

        progress = Progress(transient=True, console=None)
        progress.start()
        task = progress.add_task(f"{game.title}", total=args.games)
    try:
        for r in results:
            if out_dir is not None and r.record is not None:
                _write_record(out_dir, r.record, r.seed)
            if args.json:
                print(
                    json.dumps(
                        {
                            "game": r.game,
                            "index": r.index,
                            "seed": r.seed,
                            "players": r.players,
                            "plies": r.plies,
                            "scores": dict(zip(r.labels, r.totals)),
                            "breakdown": {lab: dict(zip(r.categories, row)) for lab, row in zip(r.labels, r.rows)},
                            "ranking": [r.labels[i] for i in r.ranking],
                            "outcome": r.outcome,
                            "digest": r.digest,
                        },
                        sort_keys=True,
                    ),
                    flush=True,
                )
            else:
                scores = "  ".join(f"{lab}: {tot}" for lab, tot in zip(r.labels, r.totals))
                print(
                    f"game {r.index + 1}: {scores}  | {r.outcome} | plies {r.plies} | digest {r.digest[:16]}",
                    flush=True,
                )
            if progress is not None:
                progress.advance(task)
    finally:
        if progress is not None:
            progress.stop()
    return 0


def _write_record(folder: Any, rec: Any, seed: str) -> None:
    from coldwater.core import record
    from coldwater.net.play import records
    from coldwater.net.play.table import note_result

    final = record.replay(rec)
    note_result(rec, final, [s.strip() for s in rec.meta.get("seats", "").split(",")])
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in seed)
    records.save(rec, folder / f"{rec.game}-sim-{safe}.json")


def cmd_review(args: argparse.Namespace) -> int:
    from coldwater.core import games, record
    from coldwater.core.errors import ContentError, RecordError
    from coldwater.core.review import ReviewError, default_budget, review_seat, summarize
    from coldwater.net.play import records

    try:
        rec = records.load(args.file)
        game = games.get(rec.game) if rec.game in games.names() else None
        if game is None:
            raise RecordError(f"unknown game {rec.game!r}; this version has: {', '.join(games.names())}")
        if args.content:
            game = game.with_content(read_content(args.content))
        record.initial_state(rec, game)  # the content and the start, checked before any work
        budget = default_budget(game).deeper(args.depth)
        seats = list(range(rec.players)) if args.seat is None else [args.seat - 1]
        if args.worst < 0:
            raise ReviewError("--worst is a number of decisions, 0 or more")
        for s in seats:
            if not 0 <= s < rec.players:
                raise ReviewError(f"seat {s + 1} is not in this game (seats 1 to {rec.players})")
    except (RecordError, ContentError, ReviewError) as e:
        print(f"coldwater: {args.file}: {e}", file=sys.stderr)
        return 1
    names = [n.strip() for n in rec.meta.get("seats", "").split(",")]
    progress = None
    if sys.stderr.isatty() and not args.json:
        from rich.progress import Progress

        progress = Progress(transient=True)
        progress.start()
    try:
        # Every seat in one pass over the record (core.review.review_seat with the seats).
        task = progress.add_task("reviewing", total=None) if progress is not None else None
        done = []
        try:
            for k, n, r in review_seat(rec, game, seats, budget=budget, seed=args.seed):
                done.append(r)
                if progress is not None and task is not None:
                    progress.update(task, completed=k, total=n, description=f"reviewing {100 * k // max(1, n)}%")
        except (RecordError, ReviewError) as e:
            print(f"coldwater: {args.file}: {e}", file=sys.stderr)
            return 1
        for s in seats:
            sr = summarize(game.name, s, done, args.worst)
            name = names[s] if s < len(names) and names[s] else f"Seat {s + 1}"
            if args.json:
                print(json.dumps(_review_json(sr, name), sort_keys=True), flush=True)
            else:
                _print_review(sr, name)
    finally:
        if progress is not None:
            progress.stop()
    return 0


def _review_json(sr: Any, name: str) -> dict[str, Any]:
    import msgspec

    worst = [{k: v for k, v in msgspec.to_builtins(d).items() if k != "choices"} for d in sr.worst]
    return {
        "game": sr.game,
        "seat": sr.seat + 1,
        "name": name,
        "decisions": sr.decisions,
        "total_loss": round(sr.total_loss, 2),
        "mean_loss": round(sr.mean_loss, 3),
        "points_behind": round(sr.points_behind, 2),
        "points_behind_se": round(sr.points_behind_se, 2),
        "worst": [{**w, "loss": round(w["loss"], 2)} for w in worst],
    }


def _print_review(sr: Any, name: str) -> None:
    unit = "PP" if sr.game == "aquatica" else "points"
    print(
        f"Seat {sr.seat + 1} ({name}): {sr.decisions} decisions, {sr.points_behind:.1f} ± {sr.points_behind_se:.1f} "
        f"{unit} behind the evaluator's own choices in all, {sr.mean_loss:.2f} a decision"
    )
    if not sr.worst:
        print("  no decision where another choice was confirmed better")
    for d in sr.worst:
        print(
            f"  round {d.round}, turn {d.turn} (ply {d.ply}): {d.chosen_text}; "
            f"{d.best_text} was worth {d.loss:.1f} ± {d.loss_se:.1f} {unit} more "
            f"(win chance {d.win_after:.0%} -> {d.win_before:.0%})"
        )


def _replay_verdict(path: str) -> int | None:
    """`coldwater replay` of a game ended by forfeit (a LAN verdict record): every signature, the game up
    to the forfeit, the verdict and whether it is agreed or contested. None when the file is not one."""
    from pathlib import Path

    from coldwater.net.session.forfeit import check_record, load_record, standings_text, verdict_text

    try:
        raw = Path(path).read_bytes()
    except OSError:
        return None  # the ordinary replay reads it again and says why it cannot, in its own words
    try:
        rec = load_record(raw)
    except ValueError as e:
        print(f"coldwater: {path}: {e}", file=sys.stderr)
        return 1
    if rec is None:
        return None
    chk = check_record(rec)
    f, j = chk.forfeit, chk.judgement
    print(f"{path}: a {rec.game} game at {rec.table!r} ended by forfeit; {chk.signatures} signatures verified")
    if f is not None and j is not None:
        print(f"  seat {', '.join(str(s + 1) for s in f.seats)} forfeits at ply {f.ply} ({f.cause}): {f.reason}")
        print(f"  standings: {standings_text(f, rec.names)}")
        print(f"  verdict: {verdict_text(j)}")
    for p in chk.problems:
        print(f"  PROBLEM: {p}")
    if chk.problems or f is None or j is None:
        return 1
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from coldwater.core import games, record
    from coldwater.core.errors import ContentError, RecordError
    from coldwater.net.play import records

    verdict = _replay_verdict(args.file)
    if verdict is not None:
        return verdict
    try:
        rec = records.load(args.file)
        game = None
        if args.content:
            game = games.get(rec.game).with_content(read_content(args.content))
        final = record.replay(rec, game)
    except (RecordError, ContentError, KeyError) as e:
        print(f"coldwater: {args.file}: {e}", file=sys.stderr)
        return 1
    sc = final.scores()
    print(f"{args.file}: {len(rec.entries)} entries verified; {'game over' if final.is_over else 'game in progress'}")
    for lab, tot in zip(sc.labels, sc.totals):
        print(f"  {lab}: {tot}")
    if sc.outcome:
        print(f"  {sc.outcome}")
    print(f"digest {final.digest()}")
    return 0


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
    if args.command == "simulate":
        try:
            return cmd_simulate(args)
        except BrokenPipeError:
            # The reader (e.g. `| head`) went away: stop quietly, as Unix tools do.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    if args.command == "replay":
        return cmd_replay(args)
    if args.command == "review":
        try:
            return cmd_review(args)
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    if args.command in ("host", "join") and "--headless" in args.rest:
        from coldwater.net import cli as net_cli

        return net_cli.main(args)  # takes the data-folder lock itself
    from coldwater.net.play.paths import DataFolderBusy, DataLock
    from coldwater.tui.servetables import die_with_server
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
