"""The headless commands of local play: ``coldwater simulate``, ``review`` and ``replay``.

They run the pure engine (core's ``simulate``, ``review`` and ``record``) and do what
core may not: read a person's files, write records, print. Nothing here imports
Textual, so the commands run where the app cannot (a pipe, CI, a server without a
terminal). The argument parser is the ``coldwater`` command's (tui/cli.py), which hands
each command its parsed namespace; the LAN's own reading of a record ended by forfeit
wraps :func:`replay` in net/replay.py. Exit status: 0 done, 1 a file that fails its
check, 2 a usage error; messages go to stderr starting ``coldwater:``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from coldwater.core import games, grading, record, reviewjson
from coldwater.core.errors import ContentError, RecordError
from coldwater.core.luck import SeatLuck, luck_events, luck_line, one_row
from coldwater.core.review import ReviewError, SeatReview, default_budget, review_seat, summarize
from coldwater.core.simulate import seat_bots
from coldwater.core.simulate import simulate as run

from . import records
from .cliargs import UsageError, fail, parse_options
from .files import read_content
from .table import note_result


def simulate(args: argparse.Namespace) -> int:
    """Bots play ``args.games`` whole games; a line (or a JSON object) per game, records if asked."""
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
        out_dir = Path(args.records)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            print(f"coldwater: {out_dir}: cannot make the folder ({e.strerror or e})", file=sys.stderr)
            return 2
    results = run(game, args.players, args.games, args.seed, bot=args.bot, options=options, records=out_dir is not None)
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


def _write_record(folder: Path, rec: record.GameRecord, seed: str) -> None:
    final = record.replay(rec)
    note_result(rec, final, [s.strip() for s in rec.meta.get("seats", "").split(",")])
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in seed)
    records.save(rec, folder / f"{rec.game}-sim-{safe}.json")


def review(args: argparse.Namespace) -> int:
    """The costliest decisions of each reviewed seat of a record, from that seat's view (docs/coach.md)."""
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
            # Then the luck of every chance event, for every seat (core/luck.py).
            events = []
            for k, n, ev in luck_events(rec, game, seed=args.seed):
                events.append(ev)
                if progress is not None and task is not None:
                    progress.update(task, completed=k, total=n, description=f"the draws' luck {100 * k // max(1, n)}%")
            lucks = reviewjson.lucks(rec, game, events)
        except (RecordError, ReviewError) as e:
            print(f"coldwater: {args.file}: {e}", file=sys.stderr)
            return 1
        for s in seats:
            sr = summarize(game.name, s, done, args.worst)
            name = names[s] if s < len(names) and names[s] else f"Seat {s + 1}"
            if args.json:
                print(
                    json.dumps(reviewjson.seat_json(sr, name, rec, game, events, lucks[s]), sort_keys=True), flush=True
                )
            else:
                _print_review(sr, name, game.unit, grading.Moves(rec), lucks[s], one_row(rec, game))
    finally:
        if progress is not None:
            progress.stop()
    return 0


def _print_review(
    sr: SeatReview, name: str, unit: str, moves: grading.Moves, luck: SeatLuck, solo: bool = False
) -> None:
    print(
        f"Seat {sr.seat + 1} ({name}): accuracy {grading.accuracy(sr.reviewed):.0f}; {sr.decisions} decisions, "
        f"{sr.points_behind:.1f} ± {sr.points_behind_se:.1f} {unit} behind the evaluator's own choices in all, "
        f"{sr.mean_loss:.2f} a decision"
    )
    print(f"  {luck_line(luck, unit, f'Seat {sr.seat + 1}', solo=solo)}")
    if not sr.worst:
        print("  no decision where another choice was confirmed better")
    for d in sr.worst:
        tag = grading.label(d)
        print(
            f"  {moves.where(d.round, d.turn, d.ply)}{' (' + tag + ')' if tag else ''}: {d.chosen_text}; "
            f"{d.best_text} was worth {d.loss:.1f} ± {d.loss_se:.1f} {unit} more "
            f"(win chance {d.win_after:.0%} -> {d.win_before:.0%})"
        )
        why = grading.why(d, unit)
        if why:
            print(f"    {why}")


def replay(path: str, content: str | None = None) -> int:
    """Replay a game record, checking every entry; print the final scores and digest."""
    try:
        rec = records.load(path)
        game = None
        if content:
            game = games.get(rec.game).with_content(read_content(content))
        final = record.replay(rec, game)
    except (RecordError, ContentError, KeyError) as e:
        print(f"coldwater: {path}: {e}", file=sys.stderr)
        return 1
    sc = final.scores()
    print(f"{path}: {len(rec.entries)} entries verified; {'game over' if final.is_over else 'game in progress'}")
    for lab, tot in zip(sc.labels, sc.totals):
        print(f"  {lab}: {tot}")
    if sc.outcome:
        print(f"  {sc.outcome}")
    print(f"digest {final.digest()}")
    return 0
