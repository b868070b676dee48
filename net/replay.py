"""``coldwater replay FILE`` where FILE may be a LAN game ended by forfeit (a verdict record).

A verdict record (net/session/forfeit.py) is read here, beside the LAN code that signs
it: every signature, the game up to the forfeit, the verdict, and whether it is agreed
or contested. Any other file is an ordinary game record, replayed by local play's
command (net/play/commands.py), so one command reads both.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .play import commands
from .session.forfeit import check_record, load_record, standings_text, verdict_text


def replay(path: str, content: str | None = None) -> int:
    """Exit status 0 when the file checks out, 1 when it does not (every problem printed)."""
    verdict = _replay_verdict(path)
    return commands.replay(path, content) if verdict is None else verdict


def _replay_verdict(path: str) -> int | None:
    """The exit status of checking a verdict record; None when the file is not one."""
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
