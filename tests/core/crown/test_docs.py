"""The rulings page repeats the rulings the code applies, word for word."""

from __future__ import annotations

from coldwater.core.crown.rulings import RULINGS
from tests.packaging import REPO as ROOT


def test_rulings_page_matches_the_code() -> None:
    page = (ROOT / "docs" / "rulings-crown.md").read_text()
    for r in RULINGS:
        assert f"**{r.topic}.** {r.text}" in page, r.topic


def test_content_page_exists() -> None:
    assert "GAME.with_content" in (ROOT / "docs" / "content.md").read_text()
