"""The last edges of the record reader (issue 34): lines that never end or end exactly at a
read block, two records on one line, and records whose own fields contradict their moves."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.record import MAX_LINE, RecordError, parse_record, read_records, summary
from skat_tui.cli import main

DATA = Path(__file__).parent / "data"
SAMPLES = DATA / "iss-samples.sgf"
HOUSE_RULES = DATA / "house-rules.sgf"


def line_of(path: Path, record_id: str) -> str:
    return next(line for line in path.read_text().splitlines() if f"ID[{record_id}]" in line)


# ---------------------------------------------------------------- lines


@pytest.mark.parametrize("blocks", [2, 3])
def test_a_last_line_of_whole_read_blocks_without_a_line_end_is_refused_not_dropped(tmp_path, blocks):
    path = tmp_path / "long.sgf"
    path.write_bytes(b"x" * (blocks * MAX_LINE))
    records, errors = read_records(path)
    assert records == [] and len(errors) == 1
    assert errors[0].line == 1 and f"{blocks * MAX_LINE:,} bytes" in str(errors[0])


@pytest.mark.parametrize("command", [["replay", "--json"], ["solve"], ["review", "--no-cache", "--id", "none"]])
def test_every_command_names_such_a_line_and_fails(tmp_path, capsys, command):
    path = tmp_path / "long.sgf"
    samples = SAMPLES.read_bytes()
    long_line = 2 * MAX_LINE - len(samples)  # the file ends exactly where the long line was dropped
    path.write_bytes(samples + b"x" * long_line)
    lines = len(SAMPLES.read_text().splitlines())
    rc = main([command[0], str(path), *command[1:]])
    err = capsys.readouterr().err
    assert rc != 0
    assert f"{path}: line {lines + 1}: the line has {long_line:,} bytes" in " ".join(err.split())


def test_a_line_that_never_ends_is_refused_and_the_reading_stops(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "skat_tui.cli", "replay", "/dev/zero", "--json"],
                          capture_output=True, text=True, timeout=300)  # a hang ends here, not in CI's timeout
    assert proc.returncode == 1 and proc.stdout == ""
    assert "/dev/zero: line 1: the line has no end in more than" in proc.stderr
    assert "the rest of the file is not read" in proc.stderr


def test_a_huge_sparse_file_is_refused_after_a_bounded_read(tmp_path):
    path = tmp_path / "sparse.sgf"
    with open(path, "wb") as handle:
        handle.truncate(1 << 30)  # 1 GiB of holes: nothing on disk, every byte a NUL
    records, errors = read_records(path)
    assert records == [] and len(errors) == 1 and "the rest of the file is not read" in str(errors[0])


def test_two_records_on_one_line_are_refused_as_such():
    first, second = SAMPLES.read_text().splitlines()[:2]
    for joined in (first + second, first + " " + second):
        with pytest.raises(RecordError, match="the line holds a second record"):
            parse_record(joined, 4)


# ---------------------------------------------------------------- fields that contradict the record


def test_a_bock_marker_in_a_game_without_bock_rounds_is_refused():
    line = SAMPLES.read_text().splitlines()[0].replace("P2[", "BK[1]P2[", 1)
    with pytest.raises(RecordError, match=r"field BK: BK\[1\] marks a Bock game, but the game's rules have no Bock"):
        parse_record(line, 1)
    kontra_only = line.replace("BK[1]", "HR[kontra]BK[1]")
    with pytest.raises(RecordError, match="no Bock rounds"):
        parse_record(kontra_only, 1)
    assert parse_record(line.replace("BK[1]", "BK[0]"), 1).bock is False  # "not a Bock game" is true of any


@pytest.mark.parametrize("record_id, old, new, message", [
    ("hr-kontra-re", "ko:2", "ko:1", "Kontra by seat 1 (ko:1), but the moves give 2"),
    ("hr-kontra-re", " ko:2", "", "Kontra by seat none (ko:-), but the moves give 2"),
    ("hr-kontra-re", " rk:1", "", "Re none (rk:-), but the moves give 1"),
    ("hr-jungfrau", "jf:2", "jf:0", "Jungfrau 0 (jf:0), but the moves give 2"),
    ("hr-jungfrau", " jf:2", "", "Jungfrau none (jf:-), but the moves give 2"),
    ("hr-jungfrau", "push:2", "push:1", "pushes 1 (push:1), but the moves give 2"),
])
def test_kontra_re_and_ramsch_tokens_of_the_result_are_compared_with_the_moves(record_id, old, new, message):
    line = line_of(HOUSE_RULES, record_id)
    assert "result_mismatch" not in summary(parse_record(line))
    assert old in line
    changed = summary(parse_record(line.replace(old, new, 1)))
    assert changed["result_mismatch"] == f"the record's result says {message}"


def test_a_kontra_in_the_result_of_a_game_without_one_is_a_mismatch():
    line = SAMPLES.read_text().splitlines()[0]
    assert "l:-1 to:-1" in line
    changed = summary(parse_record(line.replace("l:-1 to:-1", "l:-1 to:-1 ko:1")))
    assert "Kontra by seat 1 (ko:1), but the moves give none" in changed["result_mismatch"]


def test_a_token_given_twice_in_the_result_is_refused_and_an_unknown_one_noted():
    line = SAMPLES.read_text().splitlines()[0]
    with pytest.raises(RecordError, match="field R: 'v' is given twice"):
        parse_record(line.replace(" v:", " v:5 v:", 1), 1)
    with pytest.raises(RecordError, match="field R: 'bidok' is given twice"):
        parse_record(line.replace(" bidok ", " bidok bidok ", 1), 1)
    with pytest.raises(RecordError, match="both win and loss"):
        parse_record(line.replace("R[d:", "R[win d:", 1), 1)  # the first sample was lost
    noted = summary(parse_record(line.replace(" to:", " zz:9 to:", 1)))
    assert "R[...]: unknown token 'zz:9', ignored" in noted["notes"]
    assert "notes" not in summary(parse_record(line))


@pytest.mark.parametrize("rules, message", [
    ("ramsch,ramsch", "the switch ramsch is named twice"),
    ("ramsch,,schieben", "an empty switch name"),
    ("", "an empty switch name"),
    ("ramsch, schieben", "' schieben' has spaces around it"),
    ("ramsch ", "'ramsch ' has spaces around it"),
])
def test_duplicate_empty_or_padded_house_rule_names_are_refused(rules, message):
    line = line_of(HOUSE_RULES, "hr-jungfrau").replace("HR[ramsch,schieben,grand_hand_escape,kontra,bock]",
                                                        "HR[ramsch,schieben]")
    parse_record(line)  # the same record with a clean HR reads
    with pytest.raises(RecordError, match="field HR") as info:
        parse_record(line.replace("HR[ramsch,schieben]", f"HR[{rules}]"), 1)
    assert message in str(info.value)


# ---------------------------------------------------------------- fuzzing


def fuzz_records(count: int, seed: int) -> None:
    """Sample records with random edits, read as a file: every line is a record or a RecordError
    (never another exception), and every record read replays and summarizes."""
    import io
    import json
    import random

    from engine.record import GameRecord, iter_records

    rng = random.Random(seed)
    lines = [line.encode() for line in (SAMPLES.read_text() + HOUSE_RULES.read_text()).splitlines() if line]
    alphabet = b"()[];:. ,/0123456789wpsDHSCGNOJATKQ?-\n\r\x00\xff" + "♣".encode()
    for _ in range(count):
        text = bytearray(b"\n".join(rng.sample(lines, rng.randint(1, 3))))
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(text) + 1)
            edit = rng.randrange(3)
            if edit == 0 and at < len(text):
                del text[at:at + rng.randint(1, 12)]
            elif edit == 1:
                text[at:at] = bytes(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))
            else:
                start = rng.randrange(len(text) + 1)
                text[at:at] = text[start:start + rng.randint(1, 40)]  # a piece of the record again
        for item in iter_records(io.BytesIO(bytes(text))):
            assert isinstance(item, (GameRecord, RecordError))
            if isinstance(item, GameRecord):
                json.dumps(summary(item))


def test_edited_records_are_read_or_refused_never_crash():
    fuzz_records(300, seed=1)


@pytest.mark.slow
def test_edited_records_are_read_or_refused_never_crash_at_length():
    fuzz_records(20_000, seed=2)
