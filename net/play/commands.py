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
from typing import Any

import msgspec

from coldwater.core import games, record
from coldwater.core.errors import ContentError, RecordError
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
        except (RecordError, ReviewError) as e:
            print(f"coldwater: {args.file}: {e}", file=sys.stderr)
            return 1
        for s in seats:
            sr = summarize(game.name, s, done, args.worst)
            name = names[s] if s < len(names) and names[s] else f"Seat {s + 1}"
            if args.json:
                print(json.dumps(_review_json(sr, name), sort_keys=True), flush=True)
            else:
                _print_review(sr, name, game.unit)
    finally:
        if progress is not None:
            progress.stop()
    return 0


def _review_json(sr: SeatReview, name: str) -> dict[str, Any]:
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


def _print_review(sr: SeatReview, name: str, unit: str) -> None:
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
