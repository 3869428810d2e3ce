"""A tournament's players split by who declared: Seeger-Fabian per game as declarer and as defender.

``python3 -m engine.tools.roles DIR [DIR ...]`` reads each run's journal (``skat tournament
--out DIR``) and prints, per player spec, its Seeger-Fabian points per game in the games it
declared and in the games it defended (each with its 95 % interval over games), and how often
the declarer won the games it defended.  Passed-in games and Ramsch games are left out.  The
defence is where a search over information should gain on PIMC (issue 37).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

from ..tournament import read_journal


@dataclass(frozen=True)
class RoleFigures:
    spec: str
    declared: tuple[float, float, int]
    """Mean Seeger-Fabian per declared game, its 95 % half-width, the games."""
    defended: tuple[float, float, int]
    declarer_won: float
    """Share of its defended games the declarer won."""


def mean_ci(values: list[int]) -> tuple[float, float, int]:
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * spread / math.sqrt(n), n


def role_figures(folder: str) -> list[RoleFigures]:
    journal = read_journal(folder)
    specs = list(dict.fromkeys(journal.specs))  # a seat's spec index counts the distinct specs
    declared: dict[int, list[int]] = {i: [] for i in range(len(specs))}
    defended: dict[int, list[int]] = {i: [] for i in range(len(specs))}
    against: dict[int, list[bool]] = {i: [] for i in range(len(specs))}
    for outcome in journal.outcomes:
        if outcome.won is None or outcome.game in (None, "ramsch"):
            continue
        for seat in outcome.seats:
            if seat.declarer_won or seat.declarer_lost:
                declared[seat.spec].append(seat.seeger_fabian)
            elif seat.defended:
                defended[seat.spec].append(seat.seeger_fabian)
                against[seat.spec].append(bool(outcome.won))
    return [RoleFigures(spec, mean_ci(declared[i]), mean_ci(defended[i]),
                        sum(against[i]) / len(against[i]) if against[i] else 0.0)
            for i, spec in enumerate(specs)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", help="tournament output folders (with journal.jsonl)")
    args = parser.parse_args(argv)
    for folder in args.folders:
        print(folder)
        for row in role_figures(folder):
            (dm, dc, dn), (fm, fc, fn) = row.declared, row.defended
            print(f"  {row.spec:44s} declarer {dm:6.1f} ± {dc:4.1f} ({dn} games)   "
                  f"defender {fm:5.1f} ± {fc:4.1f} ({fn} games, declarer won {row.declarer_won:.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
