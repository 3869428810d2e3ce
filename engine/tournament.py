"""Tournaments as in Schäfer (2005, ch. 4): the same deals with every seat arrangement.

Each deal is played once for every distinct arrangement of the player specs
over the three seats (1, 3 or 6), so the cards dealt do not decide the
comparison.  Results are pooled per player spec (several instances of one
spec count together) on the plain and the Seeger-Fabian list, with 95 %
confidence intervals, and paired by deal for the difference between specs.

Every game is seeded from (run seed, deal, arrangement, seat), so a run gives
the same games whatever the number of workers or where they run.

The games follow the run's ``HouseRules`` (the International Skat Order by
default); with ``ramsch_only`` every deal is a Ramsch (the three passes are
made for the players), to compare Ramsch card play.  Ramsch games are also
reported on their own: the list points each spec loses per Ramsch game, and
the paired difference.

A run writes a journal into its folder as it plays (``journal.jsonl``), so that a
run stopped by Ctrl+C, a crash or a reboot can be resumed (``read_journal``,
``resume_tournament``) and ends with the same results as one that was never
stopped.  It is JSON Lines, UTF-8:

* line 1, the run: ``{"journal": "skat-tournament", "format": 1, "version": …,
  "command": …, "players": [three specs], "seed": …, "rules": HouseRules.to_dict(),
  "ramsch_only": …, "deals": ["CJ.SJ.…", …]}`` (each deal's 32 cards in ISS order,
  so a run from a deals file resumes without the file);
* then one line per finished deal, in the order they finished: ``{"deal": index,
  "seconds": …, "games": [GameOutcome as a dict, one per arrangement]}``, where
  ``seconds`` is the run's playing time so far, summed over its parts.

Each deal's line is appended, flushed and synced to disk before the next, so a
hard stop loses at most the deals in progress.  A last line cut short (or
otherwise unreadable) is dropped on resume, with a warning, and its deal played
again; any other unreadable line stops the resume, naming the line.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import itertools
import json
import math
import os
import platform
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .cards import Card
from .game import Deal, GameState
from .house_rules import ISKO, HouseRules
from .players.registry import PlayerSpec, make_player, parse_spec, split_specs, validate_spec
from .record import GameRecord, RecordError, format_record, parse_record, read_lines
from .scoring import WIN_POINTS, RamschResult
from .series import RoundGame, play_game
from .workers import run_tasks

CLOSE_GAME_POINTS = range(55, WIN_POINTS)
"""Declarer card points of a 'close game' (Schäfer's (2005) file of close games)."""


# ---------------------------------------------------------------- deals


def generate_deals(count: int, seed: int) -> list[Deal]:
    return [Deal.shuffled(random.Random(f"{seed}:deal:{i}")) for i in range(count)]


def read_deals(path: str | Path) -> list[Deal]:
    """Deals from ISS records, or from a plain list: one deal a line, 32 cards
    in ISS order (forehand, middlehand, rearhand, skat), optionally after ``w``.

    Every line is read (as ``skat replay`` reads records: a bad byte or an endless
    line fails only its line); if any line is not a deal, the file is refused with
    each such line named, since a tournament over some of its deals would not be
    the comparison asked for.
    """
    deals: list[Deal] = []
    problems: list[str] = []
    with open(path, "rb") as handle:
        for number, text in read_lines(handle):
            if isinstance(text, RecordError):
                problems.append(str(text))
                continue
            line = text.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("(;"):
                try:
                    deals.append(parse_record(line, number).deal)
                except RecordError as exc:
                    problems.append(str(exc))
                continue
            words = line.split()
            cards_text = words[1] if words[0] == "w" and len(words) > 1 else words[0]
            try:
                deals.append(Deal.from_order([Card.from_str(c) for c in cards_text.split(".")]))
            except ValueError as exc:
                problems.append(str(RecordError(f"not a deal ({exc}); expected 32 cards like CJ.SJ.HA...", number)))
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        raise ValueError(f"{path}: {len(problems)} line(s) are not deals, no game was played: {shown}")
    if not deals:
        raise ValueError(f"{path}: no deals found")
    return deals


def deal_record(deal: Deal, index: int) -> str:
    """A deal as an ISS record with no moves yet (readable by ``read_deals``)."""
    return format_record(GameRecord({"GM": "Skat", "PC": "skat-table tournament", "ID": f"deal-{index}"}, deal,
                                    [("w", ".".join(str(c) for c in deal.order()))], ""))


def arrangements(spec_count: Sequence[str]) -> list[tuple[int, ...]]:
    """Distinct seatings of the specs: indexes into the distinct specs per seat."""
    distinct = list(dict.fromkeys(spec_count))
    labels = [distinct.index(s) for s in spec_count]
    return sorted(set(itertools.permutations(labels)))


def seed_for(*parts: object) -> int:
    """A game's player seed from the run's seed and where the game stands (deal, arrangement, seat)."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:6], "big")


# ---------------------------------------------------------------- playing


@dataclass
class SeatOutcome:
    spec: int
    """Index of the player spec (among the distinct specs) in this seat."""
    seeger_fabian: int
    score: int
    card_points: int
    declarer_won: int
    declarer_lost: int
    ramsch_value: int | None = None
    """In a Ramsch, this seat's list entry (negative: points lost); None in other games."""
    defended: int = 0
    """1 if this seat defended a declared game (a call's chances are counted against these)."""
    kontra: int = 0
    """1 if this seat said Kontra."""
    re: int = 0
    """1 if this seat said Re."""
    rule_uses: dict[str, int] = field(default_factory=dict)
    """The cards of this game that a named rule of the player chose (``Player.rule_uses``)."""


def call_fields(state: GameState, seat: int) -> dict[str, int]:
    """``SeatOutcome``'s call fields for ``seat`` at the end of a game."""
    declared = state.declaration is not None and state.declarer is not None
    return {"defended": int(declared and seat != state.declarer), "kontra": int(state.kontra == seat),
            "re": int(bool(state.re) and seat == state.declarer)}


@dataclass
class GameOutcome:
    deal_index: int
    arrangement: tuple[int, ...]
    record: str
    game: str | None
    declarer_points: int | None
    won: bool | None
    seats: list[SeatOutcome]


def play_tournament_game(deal: Deal, players, rules: HouseRules = ISKO, ramsch_only: bool = False) -> GameState:
    """One game to its end; with ``ramsch_only`` the three seats pass for the players, so
    the deal is played as a Ramsch (``rules`` must have Ramsch on)."""
    if ramsch_only and not rules.ramsch:
        raise ValueError("every deal as Ramsch needs the Ramsch rule on")
    return play_game(deal, players, rules=rules, kind=RoundGame.RAMSCH if ramsch_only else None)


def play_deal(deal_index: int, deal_order: list[int], specs: list[str], seed: int, rules: dict | None = None,
              ramsch_only: bool = False) -> list[GameOutcome]:
    """All arrangements of one deal (a worker's unit of work; pure and seeded).  ``rules``:
    ``HouseRules.to_dict()`` (None: the International Skat Order)."""
    deal = Deal.from_order(deal_order)
    house_rules = HouseRules.from_dict(rules) if rules is not None else ISKO
    distinct = list(dict.fromkeys(specs))
    outcomes = []
    for arr_index, arrangement in enumerate(arrangements(specs)):
        players = [make_player(parse_spec(distinct[s]), seed_for(seed, deal_index, arr_index, seat))
                   for seat, s in enumerate(arrangement)]
        state = play_tournament_game(deal, players, house_rules, ramsch_only)
        names = tuple(distinct[s] for s in arrangement)
        record = GameRecord.from_state(state, id=f"{deal_index}-{arr_index}", players=names)
        result = state.result()
        seats = []
        for seat, s in enumerate(arrangement):
            if result is None:
                seats.append(SeatOutcome(s, 0, 0, 0, 0, 0))
                continue
            plain, seeger_fabian = result.scores_by_seat()
            if isinstance(result, RamschResult):
                seats.append(SeatOutcome(s, seeger_fabian[seat], plain[seat], result.points[seat], 0, 0,
                                         ramsch_value=plain[seat]))
                continue
            is_declarer = seat == result.declarer
            points = state.declarer_points if is_declarer else state.points[seat]
            seats.append(SeatOutcome(
                s, seeger_fabian[seat], plain[seat], points,
                int(is_declarer and result.won), int(is_declarer and not result.won), **call_fields(state, seat),
                rule_uses=players[seat].rule_uses(),
            ))
        ramsch = isinstance(result, RamschResult)
        outcomes.append(GameOutcome(
            deal_index, tuple(arrangement), format_record(record),
            None if result is None else "ramsch" if ramsch else result.declaration.game.name.lower(),
            None if result is None or ramsch else result.declarer_points,
            None if result is None or ramsch else result.won,
            seats,
        ))
    return outcomes


# ---------------------------------------------------------------- statistics


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


@dataclass
class SpecTotals:
    spec: str
    instances: int
    games: int = 0
    declarer_won: int = 0
    declarer_lost: int = 0
    card_points: int = 0
    score: int = 0
    seeger_fabian: int = 0
    seeger_fabian_per_game: float = 0.0
    ci95: float = 0.0
    ramsch_games: int = 0
    """Ramsch games this spec played (each seat counts)."""
    ramsch_score: int = 0
    """Its list entries in those games (negative: points lost; a Durchmarsch wins)."""
    ramsch_lost_per_game: float = 0.0
    """Points lost per Ramsch game (minus the mean list entry), with its 95 % interval."""
    ramsch_ci95: float = 0.0
    defended: int = 0
    """Declared games this spec defended."""
    kontra: int = 0
    """Kontras it said (once per defended game at most)."""
    kontra_share: float = 0.0
    """Kontras per defended game."""
    kontra_defenders_won: int = 0
    """Games its Kontra doubled that the defenders won."""
    re: int = 0
    """Res it said as declarer."""
    re_declarer_won: int = 0
    """Games its Re doubled that it won."""
    rules: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per named card rule (``Player.rule_uses``): ``cards`` it chose, the ``games`` it chose
    one in, of those the games this spec's side ``won`` (as declarer or as a defender) and
    their ``seeger_fabian`` points."""


def summarize(specs: list[str], outcomes: Iterable[GameOutcome]) -> tuple[list[SpecTotals], list[dict]]:
    distinct = list(dict.fromkeys(specs))
    totals = [SpecTotals(s, specs.count(s)) for s in distinct]
    per_game: list[list[int]] = [[] for _ in distinct]
    ramsch_lost: list[list[int]] = [[] for _ in distinct]
    by_deal: dict[int, list[list[int]]] = {}
    ramsch_by_deal: dict[int, list[list[int]]] = {}
    for outcome in outcomes:
        deal_values = by_deal.setdefault(outcome.deal_index, [[] for _ in distinct])
        for seat in outcome.seats:
            if seat.ramsch_value is not None:
                totals[seat.spec].ramsch_games += 1
                totals[seat.spec].ramsch_score += seat.ramsch_value
                ramsch_lost[seat.spec].append(-seat.ramsch_value)
                ramsch_by_deal.setdefault(outcome.deal_index, [[] for _ in distinct])[seat.spec].append(
                    -seat.ramsch_value)
            t = totals[seat.spec]
            t.games += 1
            t.declarer_won += seat.declarer_won
            t.declarer_lost += seat.declarer_lost
            t.card_points += seat.card_points
            t.score += seat.score
            t.seeger_fabian += seat.seeger_fabian
            t.defended += seat.defended
            t.kontra += seat.kontra
            t.kontra_defenders_won += int(bool(seat.kontra) and outcome.won is False)
            t.re += seat.re
            t.re_declarer_won += int(bool(seat.re) and outcome.won is True)
            side_won = bool(seat.declarer_won) or (bool(seat.defended) and outcome.won is False)
            for rule, uses in seat.rule_uses.items():
                tally = t.rules.setdefault(rule, {"cards": 0, "games": 0, "won": 0, "seeger_fabian": 0})
                tally["cards"] += uses
                tally["games"] += 1
                tally["won"] += int(side_won)
                tally["seeger_fabian"] += seat.seeger_fabian
            per_game[seat.spec].append(seat.seeger_fabian)
            deal_values[seat.spec].append(seat.seeger_fabian)
    for t, values in zip(totals, per_game):
        t.seeger_fabian_per_game, t.ci95 = mean_ci(values)
        t.kontra_share = t.kontra / t.defended if t.defended else 0.0
    for t, values in zip(totals, ramsch_lost):
        if values:
            t.ramsch_lost_per_game, t.ramsch_ci95 = mean_ci(values)
    pairs = []
    for a, b in itertools.combinations(range(len(distinct)), 2):
        mean, ci, deals = _paired(by_deal, a, b)
        pair = {"a": distinct[a], "b": distinct[b], "deals": deals,
                "seeger_fabian_per_game_difference": mean, "ci95": ci}
        if ramsch_by_deal:
            mean, ci, deals = _paired(ramsch_by_deal, a, b)
            pair.update({"ramsch_deals": deals, "ramsch_lost_per_game_difference": mean, "ramsch_ci95": ci})
        pairs.append(pair)
    return totals, pairs


def _paired(by_deal: dict[int, list[list[int]]], a: int, b: int) -> tuple[float, float, int]:
    """Mean and 95 % interval of spec a's mean per game minus spec b's, over the deals
    where both played (each deal's games with every arrangement), and how many deals."""
    diffs = [sum(v[a]) / len(v[a]) - sum(v[b]) / len(v[b]) for v in by_deal.values() if v[a] and v[b]]
    mean, ci = mean_ci(diffs)
    return mean, ci, len(diffs)


# ---------------------------------------------------------------- running


@dataclass
class TournamentRun:
    specs: list[str]
    deals: list[Deal]
    seed: int
    outcomes: list[GameOutcome] = field(default_factory=list)
    interrupted: bool = False
    elapsed: float = 0.0
    command: str = ""
    rules: HouseRules = ISKO
    ramsch_only: bool = False
    journal_error: str | None = None
    """Why the run stopped early if its journal could not be written (it is then ``interrupted``)."""

    @property
    def games_planned(self) -> int:
        return len(self.deals) * len(arrangements(self.specs))

    def results(self) -> dict:
        ordered = sorted(self.outcomes, key=lambda o: (o.deal_index, o.arrangement))
        totals, pairs = summarize(self.specs, ordered)
        from . import __version__

        return {
            "players": [asdict(t) for t in totals],
            "pairs": pairs,
            "run": {
                "command": self.command,
                "version": __version__,
                "seed": self.seed,
                "players": self.specs,
                "deals": len(self.deals),
                "deals_played": len({o.deal_index for o in self.outcomes}),
                "arrangements": len(arrangements(self.specs)),
                "rules": self.rules.to_dict(),
                "ramsch_only": self.ramsch_only,
                "games": len(self.outcomes),
                "interrupted": self.interrupted,
                "seconds": round(self.elapsed, 2),
                "python": platform.python_version(),
                "machine": platform.machine(),
            },
        }


def run_tournament(
    specs: list[str],
    deals: list[Deal],
    seed: int,
    workers: int = 1,
    scheduler: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    command: str = "",
    rules: HouseRules = ISKO,
    ramsch_only: bool = False,
    journal_dir: str | Path | None = None,
) -> TournamentRun:
    """Play every deal in every arrangement by ``rules``; ``ramsch_only``: every deal as a
    Ramsch (turns the Ramsch rule on).  Ctrl+C stops and keeps what was played.
    ``journal_dir``: write the run's journal there (replacing one that is there)."""
    if len(specs) != 3:
        raise ValueError("a tournament needs three player specs, one per seat")
    for spec in specs:
        make_player(spec, 0)  # fail early on a bad spec, before any worker starts
    if ramsch_only:
        rules = rules.with_switches(ramsch=True)
    run = TournamentRun(list(specs), deals, seed, command=command, rules=rules, ramsch_only=ramsch_only)
    journal = None
    if journal_dir is not None:
        journal = Path(journal_dir) / JOURNAL_FILE
        write_atomic(journal, json.dumps(_journal_header(run)) + "\n")  # never a torn first line
    _play(run, workers, scheduler, on_progress, journal)
    return run


def resume_tournament(journal: Journal, workers: int = 1, scheduler: str | None = None,
                      on_progress: Callable[[int, int], None] | None = None) -> TournamentRun:
    """Continue the run that ``journal`` holds (see ``read_journal``): its games are kept, the
    deals it lacks are played with the same seeds, and appended to the same journal.
    ``elapsed`` counts the playing time of every part."""
    for spec in journal.specs:
        make_player(spec, 0)
    run = TournamentRun(list(journal.specs), journal.deals, journal.seed, outcomes=list(journal.outcomes),
                        command=journal.command, rules=journal.rules, ramsch_only=journal.ramsch_only)
    _play(run, workers, scheduler, on_progress, journal.path, journal.deals_done, journal.seconds,
          journal.kept_bytes)
    return run


def _play(run: TournamentRun, workers: int, scheduler: str | None, on_progress, journal_path: Path | None,
          done: frozenset[int] = frozenset(), seconds_before: float = 0.0, journal_bytes: int | None = None) -> None:
    """Play the deals of ``run`` not in ``done`` into ``run.outcomes``, each finished deal
    appended to the journal; a journal that cannot be written stops the run like Ctrl+C."""
    rules_arg = None if run.rules.is_isko else run.rules.to_dict()
    tasks = [(i, [int(c) for c in d.order()], list(run.specs), run.seed, rules_arg, run.ramsch_only)
             for i, d in enumerate(run.deals) if i not in done]
    start = time.perf_counter()
    writer = _JournalWriter(journal_path, journal_bytes) if journal_path is not None else None

    def collect(_: int, outcomes: list[GameOutcome]) -> None:
        if writer is not None:
            try:
                writer.append(outcomes, seconds_before + time.perf_counter() - start)
            except OSError as exc:
                raise _JournalFailed(f"the journal {journal_path} could not be written: {exc.strerror or exc}") \
                    from None
        run.outcomes.extend(outcomes)
        if on_progress:
            on_progress(len(run.outcomes), run.games_planned)

    try:
        run_tasks(play_deal, tasks, collect, workers, scheduler)
    except KeyboardInterrupt:
        run.interrupted = True
    except _JournalFailed as exc:
        run.interrupted = True
        run.journal_error = str(exc)
    finally:
        if writer is not None:
            writer.close()
    run.elapsed = seconds_before + time.perf_counter() - start


# ---------------------------------------------------------------- output


JOURNAL_FILE = "journal.jsonl"
"""The run's journal, in its folder (see the module's docstring)."""
RESULT_FILES = ("deals.sgf", "games.sgf", "games-close.sgf", "games-lost.sgf", "results.json", "results.csv",
                JOURNAL_FILE)
"""The files a run writes into its folder, besides one ``games-TYPE.sgf`` per game type."""
_PER_TYPE_FILE = re.compile(r"games-[a-z]+\.sgf")


class OutputError(ValueError):
    """The results cannot be written where asked; said before the first game."""


def old_result_files(folder: str | Path) -> list[Path]:
    """The result files an earlier run left in ``folder`` (nothing else in it)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.name in RESULT_FILES or _PER_TYPE_FILE.fullmatch(p.name))


def prepare_outputs(out_dir: str | Path, csv_path: str | Path | None = None, overwrite: bool = False,
                    resume: bool = False) -> None:
    """Make sure, before any game is played, that the results can be written.

    The folder must be new or empty, and an existing CSV file is not replaced,
    unless ``overwrite``: then the result files of the earlier run are removed
    first (other files in the folder stay), so that none of them sits beside the
    new results.  The folder is created, and it and the CSV file's folder must
    take a file.  Raises OutputError saying what is wrong; nothing is removed then.
    With ``resume`` the folder is the resumed run's own: it is kept as it is
    (``overwrite`` then applies to the CSV file only).
    """
    if not str(out_dir).strip():  # Path("") would be the current folder
        raise OutputError("--out '' names no folder")
    if csv_path is not None and not str(csv_path).strip():
        raise OutputError("--csv '' names no file")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out {out} is a file, not a folder")
    if out.is_dir() and not overwrite and not resume:
        entries = sorted(p.name for p in out.iterdir())
        if entries:
            shown = ", ".join(entries[:3]) + (", …" if len(entries) > 3 else "")
            resumable = f", or continue the run in it with --resume {out}" if JOURNAL_FILE in entries else ""
            raise OutputError(f"--out {out} is not empty ({shown}); name a new folder, or pass --overwrite to "
                              f"replace the results in it{resumable}")
    csv_file = Path(csv_path) if csv_path is not None else None
    if csv_file is not None:
        if csv_file.is_dir():
            raise OutputError(f"--csv {csv_file} is a folder, not a file")
        if csv_file.exists() and not overwrite:
            raise OutputError(f"--csv {csv_file} exists; name a new file, or pass --overwrite to replace it")
        _check_writable(csv_file.parent, f"--csv {csv_file}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"--out {out}: cannot create the folder: {exc.strerror or exc}") from None
    _check_writable(out, f"--out {out}")
    if overwrite:
        for old in [] if resume else old_result_files(out):
            old.unlink()
        if csv_file is not None and csv_file.exists():
            csv_file.unlink()


def _check_writable(folder: Path, what: str) -> None:
    probe = folder / f".skat-write-test-{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise OutputError(f"{what}: cannot write into {folder}: {exc.strerror or exc}") from None


def write_atomic(path: str | Path, text: str) -> None:
    """``text`` into ``path`` through a temporary file beside it and a rename:
    the file is complete or as it was, never half written."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def write_outputs(run: TournamentRun, out_dir: str | Path) -> dict:
    """Deals, games (all, by game type, close, lost), results as JSON and CSV, the run's data;
    each file written whole (``write_atomic``).  See ``prepare_outputs`` for the folder."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    results = run.results()
    ordered = sorted(run.outcomes, key=lambda o: (o.deal_index, o.arrangement))
    write_atomic(out / "deals.sgf", "".join(deal_record(d, i) + "\n" for i, d in enumerate(run.deals)))
    files: dict[str, list[str]] = {"games.sgf": []}
    for o in ordered:
        files["games.sgf"].append(o.record)
        if o.game is not None:
            files.setdefault(f"games-{o.game}.sgf", []).append(o.record)
            if o.game != "null" and o.declarer_points in CLOSE_GAME_POINTS:
                files.setdefault("games-close.sgf", []).append(o.record)
            if o.won is False:
                files.setdefault("games-lost.sgf", []).append(o.record)
    for name, lines in files.items():
        write_atomic(out / name, "".join(line + "\n" for line in lines))
    write_atomic(out / "results.json", json.dumps(results, indent=2))
    write_csv(results, out / "results.csv")
    return results


def write_csv(results: dict, path: str | Path) -> None:
    text = io.StringIO()
    writer = csv.writer(text)
    columns = ["spec", "instances", "games", "declarer_won", "declarer_lost", "card_points", "score",
               "seeger_fabian", "seeger_fabian_per_game", "ci95", "ramsch_games", "ramsch_score",
               "ramsch_lost_per_game", "ramsch_ci95", "defended", "kontra", "kontra_share", "kontra_defenders_won",
               "re", "re_declarer_won"]
    writer.writerow(columns)
    for row in results["players"]:
        writer.writerow([row[c] for c in columns])
    write_atomic(path, text.getvalue())


# ---------------------------------------------------------------- journal


JOURNAL_FORMAT = 1
_JOURNAL_KIND = "skat-tournament"


class JournalError(ValueError):
    """A run that cannot be resumed: no journal, or a journal line that cannot be read."""


class _JournalFailed(Exception):
    """The journal could not be written during a run (the run stops, keeping its games)."""


@dataclass
class Journal:
    """A run as its journal holds it (``read_journal``): what ``resume_tournament`` continues."""
    path: Path
    specs: list[str]
    deals: list[Deal]
    seed: int
    rules: HouseRules
    ramsch_only: bool
    command: str
    version: str
    outcomes: list[GameOutcome]
    seconds: float
    """The playing time of the parts so far."""
    kept_bytes: int
    """The length of the readable lines; a torn last line after them is cut off on resume."""
    warnings: list[str]

    @property
    def deals_done(self) -> frozenset[int]:
        return frozenset(o.deal_index for o in self.outcomes)

    @property
    def games_planned(self) -> int:
        return len(self.deals) * len(arrangements(self.specs))


def _journal_header(run: TournamentRun) -> dict:
    from . import __version__

    return {"journal": _JOURNAL_KIND, "format": JOURNAL_FORMAT, "version": __version__, "command": run.command,
            "players": run.specs, "seed": run.seed, "rules": run.rules.to_dict(), "ramsch_only": run.ramsch_only,
            "deals": [".".join(str(c) for c in d.order()) for d in run.deals]}


class _JournalWriter:
    """Appends one line per finished deal, each on disk before the next is played."""

    def __init__(self, path: Path, keep_bytes: int | None = None):
        self._handle = open(path, "ab")
        try:
            _lock(self._handle, path)
            if keep_bytes is not None and os.fstat(self._handle.fileno()).st_size > keep_bytes:
                self._handle.truncate(keep_bytes)  # the torn last line that read_journal dropped
        except BaseException:
            self._handle.close()
            raise

    def append(self, outcomes: list[GameOutcome], seconds: float) -> None:
        line = json.dumps({"deal": outcomes[0].deal_index, "seconds": round(seconds, 3),
                           "games": [asdict(o) for o in outcomes]}, separators=(",", ":"))
        self._handle.write(line.encode() + b"\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        self._handle.close()


def _lock(handle, path: Path) -> None:
    """Only one run at a time writes a journal (two resumes of one folder would play every deal twice)."""
    try:
        import fcntl
    except ImportError:  # not on this system: no lock
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise JournalError(f"{path} is being written by another run of this tournament") from None


def read_journal(folder: str | Path) -> Journal:
    """The run whose journal is in ``folder``.  Raises JournalError when there is none, or a
    line other than the last cannot be read (naming it); an unreadable last line is left out
    with a warning (``Journal.warnings``), as is a deal journaled twice."""
    from . import __version__

    folder = Path(folder)
    path = folder / JOURNAL_FILE
    if folder.exists() and not folder.is_dir():
        raise JournalError(f"--resume {folder} is a file: name the run's folder (the one that holds {JOURNAL_FILE})")
    if not folder.is_dir():
        raise JournalError(f"--resume {folder}: no such folder")
    if not path.is_file():
        raise JournalError(f"--resume {folder}: the folder holds no {JOURNAL_FILE}, so there is no run to resume "
                           "(it is written by skat tournament as it plays)")
    data = path.read_bytes()
    # every line ends with a newline; what follows the last one is a line cut short
    *lines, tail = data.split(b"\n")
    if not lines:
        raise JournalError(f"{path} line 1: not the first line of a tournament journal (it is incomplete); "
                           "nothing to resume")
    try:
        journal = _read_header(path, lines[0])
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise JournalError(f"{path} line 1: not the first line of a tournament journal ({exc}); "
                           "nothing to resume") from None
    if journal.version != __version__:
        journal.warnings.append(f"{path} was written by version {journal.version}, this is {__version__}: the "
                                "games still to play may differ from an uninterrupted run")
    kept = len(lines[0]) + 1
    entries = [*lines[1:], tail] if tail else lines[1:]
    seen: set[int] = set()
    cut_short = bool(tail)
    for number, raw in enumerate(entries, start=2):
        last = number == len(entries) + 1
        try:
            if last and cut_short:
                raise ValueError("it is cut short")
            index, seconds, outcomes = _read_deal_line(raw, journal)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            if last:
                journal.warnings.append(f"{path} line {number} is unreadable ({exc}): left out, its deal is "
                                        "played again")
                break
            raise JournalError(f"{path} line {number}: not a finished deal ({exc}); nothing was played") from None
        kept += len(raw) + 1
        if index in seen:
            journal.warnings.append(f"{path} line {number}: deal {index} again; its first line counts")
            continue
        seen.add(index)
        journal.outcomes.extend(outcomes)
        journal.seconds = max(journal.seconds, seconds)
    journal.kept_bytes = kept
    return journal


def _read_header(path: Path, raw: bytes) -> Journal:
    header = json.loads(raw)
    if not isinstance(header, dict) or header.get("journal") != _JOURNAL_KIND:
        raise ValueError("no journal name")
    if header.get("format") != JOURNAL_FORMAT:
        raise ValueError(f"format {header.get('format')!r}; this version reads format {JOURNAL_FORMAT}")
    specs = header["players"]
    if not isinstance(specs, list) or len(specs) != 3 or not all(isinstance(s, str) for s in specs):
        raise ValueError("players are not three specs")
    for spec in specs:
        validate_spec(spec)
    seed = header["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed {seed!r} is not a whole number")
    if not isinstance(header["ramsch_only"], bool):
        raise ValueError("ramsch_only is not true or false")
    deals = [Deal.from_order([Card.from_str(c) for c in text.split(".")]) for text in header["deals"]]
    if not deals:
        raise ValueError("no deals")
    return Journal(path, specs, deals, seed, HouseRules.from_dict(header["rules"]), header["ramsch_only"],
                   str(header["command"]), str(header["version"]), [], 0.0, 0, [])


def _read_deal_line(raw: bytes, journal: Journal) -> tuple[int, float, list[GameOutcome]]:
    entry = json.loads(raw)
    if not isinstance(entry, dict) or not isinstance(entry.get("games"), list) \
            or not all(isinstance(game, dict) for game in entry["games"]):
        raise ValueError("a deal's line is a JSON object with a list of game objects")
    index, seconds = entry["deal"], entry["seconds"]
    if not isinstance(index, int) or not 0 <= index < len(journal.deals):
        raise ValueError(f"deal {index!r} is not one of the run's {len(journal.deals)} deals")
    if not isinstance(seconds, (int, float)):
        raise ValueError(f"seconds {seconds!r} is not a number")
    outcomes = [GameOutcome(game["deal_index"], tuple(game["arrangement"]), game["record"], game["game"],
                            game["declarer_points"], game["won"], _seat_outcomes(game))
                for game in entry["games"]]
    if [o.arrangement for o in outcomes] != arrangements(journal.specs) or any(o.deal_index != index
                                                                               for o in outcomes):
        raise ValueError(f"the games are not deal {index}'s in every seat arrangement")
    return index, float(seconds), outcomes


def _seat_outcomes(game: dict) -> list[SeatOutcome]:
    """A journal game's seats; a journal written before the call counts gets them from its record."""
    seats = game["seats"]
    if all("defended" in seat for seat in seats):
        return [SeatOutcome(**seat) for seat in seats]
    state = parse_record(game["record"]).replay()
    return [SeatOutcome(**{**seat, **call_fields(state, i)}) for i, seat in enumerate(seats)]


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def command_line() -> str:
    return " ".join(["skat", *sys.argv[1:]])


__all__ = [
    "generate_deals", "read_deals", "arrangements", "play_deal", "run_tournament", "write_outputs", "summarize",
    "mean_ci", "split_specs", "PlayerSpec", "prepare_outputs", "OutputError", "write_atomic", "write_csv",
    "old_result_files", "RESULT_FILES", "JOURNAL_FILE", "Journal", "JournalError", "read_journal",
    "resume_tournament",
]
