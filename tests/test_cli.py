"""The headless command line: bad input gets a clear message and a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from coldwater.tui.cli import main


def test_replay_refuses_a_corrupt_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "r.json"
    bad.write_text("{ this is not a record")
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "not a coldwater record" in err
    assert bad.read_text() == "{ this is not a record"  # nothing overwritten


def test_replay_refuses_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_simulate_rejects_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "nosuchgame"])
