"""skat bench's table: one section per table, fits 100 columns, missed goals marked."""

from rich.console import Console

from engine.tools.bench import BenchRow, bench_tables, goal_met

ROWS = [
    BenchRow("solver exact", "suit, 10 tricks left", 12, 10.346, 7.939, 11.095, 53.253, 31464, 3.0,
             goal="mean <= 5 ms"),
    BenchRow("solver exact", "null, 10 tricks left", 12, 0.008, 0.003, 0.008, 0.054, 62, 8.2, goal="mean <= 0.02 ms"),
    BenchRow("solver exact", "really bid (suit/grand), 10 left", 12, 12.256, 9.62, 21.725, 54.659, 72816, 5.9),
    BenchRow("threads", "PIMC batches: per-card threshold 61, 10 tricks left, 8 worlds a call: 2-thread / 1-thread",
             value=1.6822, unit="x", goal=">= 1.7x"),
    BenchRow("threads", "exact, 7 tricks left: 2 thread(s)", 60, value=3466.3, unit="worlds/s",
             note="best of 1 alternating rounds"),
    BenchRow("players", "MCU simulations/s", value=5548.9, unit="/s", goal=">= 5,000 on 2 threads",
             note="2 thread(s), first trick, 100 worlds a move, best of 1"),
    BenchRow("budgets", "PIMC overrun of a 0.3 s move", value=35.07, unit="ms", goal="<= 35 ms",
             note="worst of 3 positions"),
]


def test_goals_are_read_from_their_wording():
    assert [goal_met(r) for r in ROWS] == [False, True, None, False, None, True, False]


def test_each_section_is_a_table_that_fits_100_columns_with_every_number_whole():
    tables = bench_tables(ROWS)
    assert [str(t.title).split(" (")[0] for t in tables] == ["solver exact", "threads", "players", "budgets"]
    console = Console(width=100, record=True)
    for table in tables:
        console.print(table)
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 100
    text = "\n".join(lines)
    for cell in ("10.346", "53.253", "31,464", "72,816", "1.68 x", "3,466 worlds/s", "5,549 /s", "35.07 ms",
                 "✗ mean <= 5 ms", "✓ mean <= 0.02 ms", "✗ >= 1.7x", "✓ >= 5,000 on 2 threads", "✗ <= 35 ms"):
        assert cell in text, cell
    # a section without timings shows no timing columns
    threads = next(line for line in lines if line.lstrip().startswith("what") and "value" in line
                   and "mean" not in line)
    assert "nodes" not in threads
