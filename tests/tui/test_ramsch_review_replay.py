"""A reviewed Ramsch in the replay: the plot without a declarer's chances, the status line
with the mover's own card points (tests/data/house-rules.sgf)."""

from __future__ import annotations

from pathlib import Path

from engine.limits import Limit
from engine.record import read_records
from engine.review import review_record, store_cached
from skat_tui.app import SkatApp
from skat_tui.screens.replay_screen import ReplayScreen
from skat_tui.widgets.review_plot import ReviewPlot

HOUSE_RULES = Path(__file__).parent.parent / "data" / "house-rules.sgf"


async def test_the_replay_shows_a_ramsch_review_and_jumps_to_its_blunder(tmp_path, fast_settings):
    path = tmp_path / "house-rules.sgf"
    path.write_text(HOUSE_RULES.read_text())
    records, errors = read_records(path)
    assert not errors
    jungfrau = next(r for r in records if r.id == "hr-jungfrau")
    store_cached(path, [review_record(jungfrau, "pimc", Limit(simulations=2))])
    app = SkatApp(records=[jungfrau], settings=fast_settings, record_path=str(path))
    async with app.run_test(size=(100, 34)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        plot = screen.query_one(ReviewPlot)
        assert plot.has_class("-shown") and plot.review is not None and plot.review.ramsch
        assert "Ramsch: marks by card points given away" in plot.plain()
        first = plot.plain().splitlines()[0]  # no accuracy without a declarer's chance: the marks
        assert first.startswith("Marks: Ann ") and "–" not in first and "Accuracy" not in first
        await pilot.press("n")  # to just after the first marked card: Ann's ♣8 leading trick 3
        status = screen.status_text()
        assert "Ann plays ♣8" in status and "?? open hands: 82 own card points, ♥8 27" in status
