"""The review in the replay: marks and loss in the status, the course plot, next-mistake keys,
a review computed on demand and kept beside the record."""

from __future__ import annotations

from pathlib import Path

from engine.limits import Limit
from engine.record import read_records
from engine.review import cache_path, load_cached, review_record, store_cached
from skat_tui.app import SkatApp
from skat_tui.screens.replay_screen import ReplayScreen
from skat_tui.widgets.review_plot import LABEL_WIDTH, ReviewPlot
from tui_fakes import wait_until

PLANTED = Path(__file__).parent.parent / "data" / "planted-blunder.sgf"


def planted_file(tmp_path: Path, reviewed: bool) -> Path:
    path = tmp_path / "planted.sgf"
    path.write_text(PLANTED.read_text())
    if reviewed:
        records, _ = read_records(path)
        store_cached(path, [review_record(records[0], "pimc", Limit(simulations=20), seed=4)])
    return path


def replay_app(path: Path, settings) -> tuple[SkatApp, list]:
    """The app opened on the replay of the records in ``path`` (which must read without errors)."""
    records, errors = read_records(path)
    assert not errors
    return SkatApp(records=records, settings=settings, record_path=str(path)), records


async def test_the_replay_shows_the_cached_review_and_jumps_to_the_blunder(tmp_path, fast_settings):
    path = planted_file(tmp_path, reviewed=True)
    app, _ = replay_app(path, fast_settings)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        plot = screen.query_one(ReviewPlot)
        assert plot.has_class("-shown") and plot.review is not None
        assert "Accuracy: Ann" in plot.plain()
        assert "??" in plot.plain() and "DD" in plot.plain()
        marked = plot.review.marked()  # contract and card decisions, in the order of the moves
        blunder = next(d for d in marked if d.mark == "??")  # Ann's ♥A at trick 9
        for d in marked[:marked.index(blunder) + 1]:
            await pilot.press("n")  # to just after the next marked card
            assert screen.navigator.position == d.move + 1
        status = screen.status_text()
        assert "Ann plays ♥A ??" in status and "own view: −15 pts −100%, best ♥J" in status
        assert "open hands: 47 lost, ♥J 62 won" in status
        cursor = plot.plain().splitlines()[-1]
        marks = plot.plain().splitlines()[-2]
        assert cursor.index("▲") == marks.index("??")  # the cursor stands under the blunder's mark
        legend, *course = plot.plain().splitlines()[1:-1]  # three rows of bars, the double-dummy strip, the marks
        assert legend.startswith("bars: declarer's chance, mover's view · DD: all hands open")
        assert course[3].index("▀") == LABEL_WIDTH  # the labels are as wide in every row
        assert {len(line) for line in course} == {LABEL_WIDTH + 2 * len(plot.review.decisions)}
        await pilot.press("home", "right")  # Bob passes at 18: valued by the search bidder
        assert plot.review.contract_at(0) is not None
        assert "Bob passes" in screen.status_text() and "expected score" in screen.status_text()
        await pilot.press("home", "N")  # backwards from the start wraps to the last marked card
        assert screen.navigator.position == marked[-1].move + 1


async def test_a_game_without_review_is_reviewed_on_demand_and_kept_beside_the_record(tmp_path, fast_settings):
    path = planted_file(tmp_path, reviewed=False)
    app, records = replay_app(path, fast_settings)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = app.screen
        plot = screen.query_one(ReviewPlot)
        assert not plot.has_class("-shown")
        await pilot.press("n")
        assert screen.navigator.position == 0  # nothing to jump to: a note says how to review
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.current_review is not None, timeout=300)
        assert plot.has_class("-shown") and "Accuracy" in plot.plain()
    cached = load_cached(path)
    assert list(cached) == ["planted-1"]
    assert cache_path(path).exists()
    # the same review as `skat review FILE` with its defaults (PIMC, 100 worlds, seed 1)
    assert cached["planted-1"] == review_record(records[0], "pimc", Limit(simulations=100), seed=1, threads=2)


async def test_a_cached_review_of_a_changed_record_is_not_shown(tmp_path, fast_settings):
    path = planted_file(tmp_path, reviewed=True)
    # the same ID, but now Ann trumps at trick 9 and leads ♥A: the moves differ from the review's
    text = path.read_text()
    assert "1 SK 2 C8 0 HA 1 CQ 2 C9 0 HJ" in text
    path.write_text(text.replace("1 SK 2 C8 0 HA 1 CQ 2 C9 0 HJ", "1 SK 2 C8 0 HJ 0 HA 1 CQ 2 C9"))
    app, records = replay_app(path, fast_settings)
    assert records[0].id == "planted-1"
    async with app.run_test(size=(100, 34)) as pilot:
        screen = app.screen
        assert "planted-1" in screen.reviews  # the cache is there ...
        assert screen.current_review is None  # ... but it is about other moves
        assert not screen.query_one(ReviewPlot).has_class("-shown")
        await pilot.press("n")
        assert screen.navigator.position == 0


async def test_the_review_in_the_replay_says_what_it_waits_for_and_which_card_it_reviews(tmp_path, fast_settings,
                                                                                         monkeypatch):
    import threading

    import engine.review
    from engine.players import readiness
    from engine.review import ReviewStopped, card_decisions

    core_ready, finish = threading.Event(), threading.Event()
    monkeypatch.setattr(readiness, "pending", lambda *parts: not core_ready.is_set())

    def one_card_then_wait(record, *args, on_decision=None, stop=None, **kwargs):
        on_decision(1, len(card_decisions(record)))
        finish.wait(30)
        raise ReviewStopped("the test is over")

    monkeypatch.setattr(engine.review, "review_record", one_card_then_wait)
    path = planted_file(tmp_path, reviewed=False)
    app, records = replay_app(path, fast_settings)
    total = len(card_decisions(records[0]))
    async with app.run_test(size=(80, 24)) as pilot:
        plot = app.screen.query_one(ReviewPlot)
        await pilot.press("r")
        await wait_until(pilot, lambda: "waiting for the search core" in plot.progress)
        core_ready.set()
        await wait_until(pilot, lambda: plot.progress == f"reviewing card 2 of {total}…")
        finish.set()


async def test_at_80_by_24_the_review_leaves_the_trick_room(tmp_path, fast_settings):
    app, _ = replay_app(planted_file(tmp_path, reviewed=True), fast_settings)
    async with app.run_test(size=(80, 24)) as pilot:
        plot = app.screen.query_one(ReviewPlot)
        for _ in range(3):
            await pilot.press("n")  # to the blunder at trick 9: two cards on the table, Ann's third
        await pilot.pause()
        lines = plot.plain().splitlines()
        assert lines[1].startswith("bars: declarer's chance, mover's view · background: all hands open")
        assert len(lines) == 5 and all(len(line) <= 78 for line in lines)  # the bars and the strip in one row
        # the trick: its title, the two cards beside each other and Ann's below them, three lines each
        assert app.screen.query_one("#trick").region.height >= 9


async def test_the_replay_footer_shows_its_first_keys_at_80_columns(tmp_path, fast_settings):
    from tui_fakes import footer_settled

    app, _ = replay_app(planted_file(tmp_path, reviewed=False), fast_settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: footer_settled(app))
        footer = app.screen.query_one("Footer")
        shown = {key.key for key in footer.query("FooterKey") if key.region.right <= footer.region.right
                 and key.region.x >= footer.region.x and key.region.width > 0}
        assert {"right", "left", "right_square_bracket", "n", "question_mark", "q"} <= shown
        assert footer.scroll_x == 0  # nothing scrolled out of sight
