"""Issue 44: a LAN game ended by forfeit is kept as a verdict record that Replays lists with its verdict
and `coldwater replay` checks; a record altered after the fact is caught."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec

from coldwater.net import messages as m
from coldwater.net.identity import Identity
from coldwater.net.session import forfeit as ff
from coldwater.net.session.fairwire import fair_message
from coldwater.tui.screens.replays import verdict_item

JOINT = b"j" * 32


def _signed(who: Identity, kind: str, ply: int, seat: int, body: bytes, digest: bytes) -> m.Fair:
    sig = who.sign(fair_message(JOINT, kind, ply, "", seat, body, digest))
    return m.Fair(kind=kind, ply=ply, seat=seat, body=body, sig=sig, digest=digest)


def _record(*, accused_answers: bool) -> ff.VerdictRecord:
    ids = [Identity.generate() for _ in range(3)]
    f = ff.Forfeit(seats=[2], reason="seat 3 stalls", ply=40, labels=["A", "B", "C"], totals=[5, 3, 9], order=[0, 1, 2])
    d = b"\x07" * 32
    body = ff.encode(f)
    answers = [_signed(ids[0], "verdict", 40, 0, body, d), _signed(ids[1], "verdict", 40, 1, body, d)]
    own = _signed(ids[2], "act", 40, 2, b"move", d)
    if accused_answers:
        dispute = ff.encode_dispute(ff.Dispute(text="I moved", evidence=[own]))
        answers.append(_signed(ids[2], "dispute", 40, 2, dispute, d))
    return ff.make_record(
        game="crown",
        table="Weir",
        players=3,
        seat=1,
        joint=JOINT,
        keys={i: x.public for i, x in enumerate(ids)},
        proposer=ids[0].public,
        names={0: "Ann", 1: "Bo", 2: "Cy"},
        proposal=_signed(ids[0], "forfeit", 40, 0, body, d),
        answers=answers,
        messages=[_signed(ids[1], "act", 39, 1, b"x", b"\x06" * 32), own],
        steps=[m.Step(ply=40, seat=1, digest=d)],
    )


def test_agreed_and_contested_verdicts_are_read_from_the_signed_answers(tmp_path: Path) -> None:
    for accused, word in ((False, "agreed"), (True, "contested")):
        path = tmp_path / f"lan-{word}.json"
        path.write_bytes(ff.dump_record(_record(accused_answers=accused)))
        item = verdict_item(path)
        assert item is not None
        game, summary, text = item
        assert game == "crown" and summary == f"Ann, Bo, Cy · Cy forfeits · {word}", summary
        assert "Standings: Ann 5, Bo 3, Cy (forfeits) 9" in text and "PROBLEMS" not in text, text
        out = subprocess.run(
            [sys.executable, "-m", "coldwater", "replay", str(path)], capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 0 and f"verdict: {word}" in out.stdout, out


def test_a_record_altered_after_the_game_is_caught(tmp_path: Path) -> None:
    rec = _record(accused_answers=True)
    # Someone drops the accused's dispute and rewrites the standings: the signatures give it away.
    f = ff.decode(rec.proposal.body)
    assert f is not None
    forged = msgspec.structs.replace(f, totals=[9, 3, 5])
    bad = msgspec.structs.replace(
        rec, proposal=msgspec.structs.replace(rec.proposal, body=ff.encode(forged)), answers=rec.answers[:2]
    )
    chk = ff.check_record(bad)
    assert "the proposal is not signed by the host's key" in chk.problems, chk.problems
    path = tmp_path / "bad.json"
    path.write_bytes(ff.dump_record(bad))
    out = subprocess.run(
        [sys.executable, "-m", "coldwater", "replay", str(path)], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 1 and "PROBLEM: the proposal is not signed" in out.stdout, out
    assert verdict_item(tmp_path / "nothing.json") is None  # not a verdict record: the usual path
