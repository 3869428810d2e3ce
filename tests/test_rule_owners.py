"""One owner for each scoring rule: ``engine/scoring.py``.  The card points a declarer needs
(61, 90), the Seeger-Fabian bonuses (50, 40) and the card-point table appear as numbers
nowhere else in the code (docstrings and comments may name them)."""

import io
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(p for package in ("engine", "skat_tui") for p in (ROOT / package).rglob("*.py"))
OWNER = ROOT / "engine" / "scoring.py"
CARDS = ROOT / "engine" / "cards.py"


def _code_tokens(path: Path) -> list[tokenize.TokenInfo]:
    skip = (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)
    return [t for t in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
            if t.type not in skip]


def _written_again() -> list[str]:
    found = []
    for path in SOURCES:
        if path == OWNER:
            continue
        tokens = _code_tokens(path)
        where = path.relative_to(ROOT)
        for i, t in enumerate(tokens):
            if t.type == tokenize.NUMBER and t.string in ("61", "90"):
                found.append(f"{where}:{t.start[0]}: card points needed written as {t.string}")
            if (t.type == tokenize.NUMBER and t.string in ("40", "50", "80") and i
                    and tokens[i - 1].string in ("+", "-")):
                found.append(f"{where}:{t.start[0]}: a Seeger-Fabian bonus written as {tokens[i - 1].string}{t.string}")
        if path != CARDS and "10, 2, 3, 4, 11" in path.read_text(encoding="utf-8"):
            found.append(f"{where}: the card-point table copied")
    return found


def test_no_scoring_number_is_written_outside_its_owner():
    assert _written_again() == []


def test_the_check_sees_a_copy(tmp_path, monkeypatch):
    copy = tmp_path / "copy.py"
    copy.write_text("def won(points):\n    return points >= 61  # a copy\n\n\nS = (0, 0, 0, 10, 2, 3, 4, 11)\n"
                    "x = 3 + 50\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "SOURCES", [copy])
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert len(_written_again()) == 3
