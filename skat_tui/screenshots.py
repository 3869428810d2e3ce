"""Make the README's screenshots (SVG) from the real app with real opponents.

    python -m skat_tui.screenshots [--out docs]

Seeded deals and simulation budgets keep the pictures reproducible; the
human seat is played by the heuristic player through the keyboard, as a
person would.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from pathlib import Path

SIZE = (100, 30)


async def _wait(pilot, predicate, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise TimeoutError("the app did not get there in time")
        await pilot.pause(0.02)


async def table_shots(out: Path, seed: int) -> None:
    from engine.game import Phase, Play
    from engine.players.heuristic import HeuristicPlayer
    from engine.players.registry import make_player

    from .app import SkatApp
    from .persistence import TableSession
    from .screens.declaration import DeclarationDialog
    from .screens.table import TableScreen
    from .settings import Settings
    from .widgets.cards import HandRow

    settings = Settings()
    settings.ai_delay = 0.0
    players = {1: make_player("mcu:simulations=200", 1), 2: make_player("pimc:simulations=40,eval=wins", 2)}
    app = SkatApp(session=TableSession.new(seed), settings=settings, players=players)
    me = HeuristicPlayer(seed)
    async with app.run_test(size=SIZE) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        shot_taken = False
        while not shot_taken:
            await _wait(pilot, lambda: screen.my_turn or isinstance(app.screen, DeclarationDialog))
            state = screen.state
            if state.phase == Phase.BIDDING:
                await pilot.press("p")  # let the computers play the game
            elif state.phase == Phase.PLAY:
                if len(state.tricks) >= 3 and screen.last_analysis is not None:
                    app.save_screenshot("table.svg", str(out))
                    await pilot.press("d")
                    await pilot.pause(0.3)
                    app.save_screenshot("debug-panel.svg", str(out))
                    await pilot.press("d")
                    shot_taken = True
                    break
                move = me.choose(state.view(state.to_move)).move
                assert isinstance(move, Play)
                index = screen.query_one(HandRow).cards.index(move.card)
                await pilot.press("1234567890"[index])
            else:
                await pilot.press("n")
            await pilot.pause(0.05)
        screen.stop_thinking()


async def replay_shot(out: Path) -> None:
    from engine.record import read_records

    from .app import SkatApp
    from .settings import Settings

    records, _ = read_records(Path(__file__).resolve().parent.parent / "assets" / "iss-samples.sgf")
    app = SkatApp(records=records[1:2], settings=Settings())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        for _ in range(5):
            await pilot.press("]")
        await pilot.press("right")
        await pilot.pause(0.2)
        app.save_screenshot("replay.svg", str(out))


async def review_shot(out: Path) -> None:
    """A real ISS game reviewed as ``skat review`` does by default, at its first marked card."""
    import shutil

    from engine.limits import Limit
    from engine.record import read_records
    from engine.review import review_record, store_cached

    from .app import SkatApp
    from .settings import Settings

    scratch = Path(tempfile.mkdtemp(prefix="skat-review-shot-"))
    path = scratch / "games.sgf"
    shutil.copy(Path(__file__).resolve().parent.parent / "assets" / "iss-samples.sgf", path)
    records, _ = read_records(path)
    record = next(r for r in records if r.id == "684159")
    store_cached(path, [review_record(record, "pimc", Limit(simulations=100), seed=1, threads=2)])
    app = SkatApp(records=[record], settings=Settings(), record_path=str(path))
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        for _ in range(5):  # past the bidding's marks to the first marked card
            await pilot.press("n")
            if screen.current_review.decision_at(screen.navigator.position - 1) is not None:
                break
        await pilot.pause(0.2)
        app.save_screenshot("review.svg", str(out))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Make the README's screenshots.")
    parser.add_argument("--out", default="docs")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="skat-shots-")
    os.environ["SKAT_DATA_DIR"] = os.environ["SKAT_CONFIG_DIR"] = scratch  # never touch the user's series
    asyncio.run(table_shots(out, args.seed))
    asyncio.run(replay_shot(out))
    asyncio.run(review_shot(out))
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main()
