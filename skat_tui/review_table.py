"""A reviewed game as rich tables: one row per card played, then a summary per player."""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from engine.cards import Card
from engine.review import (
    BLUNDER,
    MISTAKE,
    ONLY_CARD,
    RAMSCH_BLUNDER_POINTS,
    RAMSCH_MISTAKE_POINTS,
    CallReview,
    CardValue,
    ContractReview,
    DecisionReview,
    GameReview,
)

from .widgets.cards import card_text

MARK_STYLES = {BLUNDER: "bold white on red", MISTAKE: "bold black on yellow", ONLY_CARD: "bold black on green"}


def mark_text(mark: str) -> Text:
    return Text(mark.ljust(2), style=MARK_STYLES.get(mark, ""))


def _card(name: str, german: bool) -> Text:
    return card_text(Card.from_str(name), german)


def _percent(share: float | None) -> str:
    return "–" if share is None else f"{100 * share:.0f}%"


def _view_cell(value: CardValue) -> str:
    if value.view_win is None:
        return "–"
    if value.view_points is None:
        return _percent(value.view_win)
    return f"{value.view_points:.0f} {_percent(value.view_win)}"


def _dd_cell(value: CardValue) -> str:
    outcome = "W" if value.dd_won else "L"
    return outcome if value.dd_points is None else f"{value.dd_points} {outcome}"


def _best_view(d: DecisionReview) -> CardValue | None:
    searched = [c for c in d.cards if c.view_win is not None]
    if not searched:
        return None
    return max(searched, key=lambda c: (c.view_points if c.view_points is not None else 0.0, c.view_win))


def _best_dd(d: DecisionReview) -> CardValue:
    return max(d.cards, key=lambda c: (c.dd_won, c.dd_points or 0))


def loss_text(d: DecisionReview) -> str:
    """The chosen card's loss from the seat's view: '−12 −30%' (points, win share; empty when nothing was lost)."""
    parts = []
    if d.view_loss_points is not None and d.view_loss_points >= 0.5:
        parts.append(f"−{d.view_loss_points:.0f}")
    if d.view_loss_win is not None and d.view_loss_win >= 0.005:
        parts.append(f"−{100 * d.view_loss_win:.0f}%")
    return " ".join(parts)


def decisions_table(review: GameReview, german: bool = False) -> Table:
    title = f"Record {review.record_id} · {review.game}"
    if review.declarer is not None:
        title += f" · declarer {review.players[review.declarer]}"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  padding=(0, 1, 0, 0))
    table.add_column("trick", justify="right", no_wrap=True)
    table.add_column("player", no_wrap=True, max_width=12, overflow="ellipsis")
    table.add_column("card", no_wrap=True)
    table.add_column("view", justify="right", no_wrap=True)
    table.add_column("best view", no_wrap=True)
    table.add_column("loss", justify="right", no_wrap=True)
    table.add_column("DD", justify="right", no_wrap=True)
    table.add_column("best DD", no_wrap=True)
    table.add_column("decl", justify="right", no_wrap=True)
    for d in review.decisions:
        mine = d.chosen_value
        best_view = _best_view(d)
        best_dd = _best_dd(d)
        dd = _dd_cell(mine) + (" ↓" if d.dd_turned else "")  # ↓: a win double-dummy thrown away
        chance = "–" if d.declarer_view_after is None else _percent(d.declarer_view_after)
        same_dd = best_dd.dd_won == mine.dd_won and best_dd.dd_points == mine.dd_points
        table.add_row(
            f"{d.trick}.{d.position}",
            Text(f"{'*' if d.declarer_side else ' '}{review.players[d.seat]}"),
            _card(d.chosen, german) + Text(" ") + mark_text(d.mark),
            "forced" if d.forced else _view_cell(mine),
            Text("") if d.forced or best_view is None or best_view.card == d.chosen or not loss_text(d)
            else _card(best_view.card, german) + Text(f" {_view_cell(best_view)}"),
            loss_text(d),
            dd,
            Text("") if d.forced or same_dd else _card(best_dd.card, german) + Text(f" {_dd_cell(best_dd)}"),
            f"{chance} {'W' if d.declarer_dd_after else 'L'}",
        )
    return table


def ramsch_table(review: GameReview, german: bool = False) -> Table:
    """A Ramsch's cards: the card points each mover ends with after his card, double-dummy
    and paranoid (both others against him), and the best card's; no own view."""
    table = Table(title=f"Record {review.record_id} · Ramsch: the mover's own card points, double dummy "
                        f"with both others against him (lower is better)",
                  title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))
    for column, justify in (("trick", "right"), ("player", "left"), ("card", "left"), ("DD", "right"),
                            ("best DD", "left"), ("loss", "right")):
        table.add_column(column, justify=justify, no_wrap=True)
    for d in review.decisions:
        mine = d.chosen_value
        best = min(d.cards, key=lambda c: c.dd_points)
        table.add_row(
            f"{d.trick}.{d.position}", review.players[d.seat],
            _card(d.chosen, german) + Text(" ") + mark_text(d.mark),
            "forced" if d.forced else str(mine.dd_points),
            Text("") if d.forced or not d.dd_loss_points else _card(best.card, german) + Text(f" {best.dd_points}"),
            f"+{d.dd_loss_points}" if d.dd_loss_points else "",
        )
    return table


RAMSCH_LEGEND = (f"Ramsch: every player for himself.  DD: the card points the player ends with after the card "
                 "(the skat with the last trick) when both others play to give him as many as they can, all "
                 "hands open; loss: the points more than after the best card.  The own view is not available "
                 "for a Ramsch (no PIMC/MCU search of it in the review), so the marks rest on double dummy: "
                 f"?? from {RAMSCH_BLUNDER_POINTS} points more, ? from {RAMSCH_MISTAKE_POINTS} (docs/review.md).")


PHASE_NAMES = {"bidding": "bid", "skat": "skat/hand", "discard": "discard"}


def contract_option_text(name: str, discard: str, german: bool = False) -> Text:
    text = Text(name)
    if discard:
        text.append(" · ")
        for i, card in enumerate(discard.split(".")):
            text.append(" " if i else "")
            text.append_text(_card(card, german))
    return text


def contract_best(c: ContractReview):
    return max(c.options, key=lambda o: o.expected)


def contracts_table(review: GameReview, german: bool = False) -> Table:
    table = Table(title=f"Record {review.record_id} · bidding and contract: expected score by the search bidder",
                  title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))
    for column, justify in (("player", "left"), ("decision", "left"), ("chosen", "left"), ("score", "right"),
                            ("best", "left"), ("loss", "right")):
        table.add_column(column, justify=justify, no_wrap=True)
    for c in review.contracts:
        chosen = Text(c.chosen.split(" · ")[0])
        if c.phase == "discard":
            name, _, discard = c.chosen.partition(" · ")
            chosen = contract_option_text(name, discard, german)
        chosen.append(" ")
        chosen.append_text(mark_text(c.mark))
        best = contract_best(c)
        mine = c.options[c.chosen_index] if c.chosen_index is not None else None
        table.add_row(
            review.players[c.seat], f"{PHASE_NAMES.get(c.phase, c.phase)} {c.stake}", chosen,
            "not valued" if mine is None else f"{mine.expected:+.0f}",
            Text("") if mine is best or (mine is not None and mine.expected >= best.expected)
            else contract_option_text(best.name, best.discard, german) + Text(f" {best.expected:+.0f}"),
            "" if not c.loss else f"−{c.loss:.0f}",
        )
    return table


def summary_table(review: GameReview) -> Table:
    table = Table(title="Per player", title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  collapse_padding=True)
    # headers in two lines and the mean loss in two columns: the table fits 80 columns uncut
    for column in ("player", "cards", "choices", "accuracy", "mean loss\npoints", "mean loss\nwin share",
                   "contract\nloss", "?", "??", "!", "DD ↓"):
        table.add_column(column, justify="left" if column == "player" else "right", no_wrap=True)
    for s in review.summaries():
        if s.decisions == 0:
            continue
        points = "–" if s.mean_loss_win is None or s.mean_loss_points is None else f"{s.mean_loss_points:.1f}"
        win = "–" if s.mean_loss_win is None else f"{100 * s.mean_loss_win:.1f}%"
        table.add_row(s.name, str(s.decisions), str(s.choices),
                      "–" if s.accuracy is None else f"{s.accuracy:.0f}%", points, win,
                      "–" if s.contract_loss is None else f"{s.contract_loss:.0f}",
                      str(s.mistakes), str(s.blunders), str(s.only_cards), str(s.dd_turned))
    return table


LEGEND = ("* declarer.  view: the side's expected card points and win share from the player's own view "
          "(what could be known); loss: against the best card there; DD: double dummy, all hands open "
          "(what was possible): the side's points, W won / L lost, ↓ a won game thrown away; decl: the "
          "declarer's chance after the card (view) and W/L double-dummy.  ?? blunder, ? mistake, "
          "! the only card that keeps the game; a contract choice is marked by the score it loses against the "
          "best option the search bidder found (thresholds in docs/review.md).")


def call_note(c: CallReview) -> str:
    """A call's review, in the words of the card marks: '? own view: the defenders win 38 %
    (Kontra from 50 %) · open hands: the defenders lose'."""
    if c.call == "Kontra":
        outcome = "the defenders " + ("win" if c.side_wins_dd else "lose")
    else:
        outcome = "the declarer " + ("wins" if c.side_wins_dd else "loses")
    side = "the defenders win" if c.call == "Kontra" else "the declarer wins"
    parts = [f"own view: {side} {c.view_win:.0%} ({c.call} from {c.threshold:.0%})"] if c.view_win is not None else []
    parts.append(f"open hands: {outcome}")
    return (f"{c.mark} " if c.mark else "") + " · ".join(parts)


def review_report(review: GameReview, german: bool = False) -> Group:
    if not review.decisions and not review.contracts and not review.not_reviewed and not review.calls:
        return Group(Text(f"Record {review.record_id} · {review.game}: nothing to review"))
    limit = review.limit
    budget = f"{limit['simulations']} worlds" if limit.get("simulations") else f"{limit.get('time')} s"
    parts = []
    if review.contracts:
        parts += [contracts_table(review, german), Text("")]
    if review.calls:
        parts += [Text("Calls: " + "; ".join(f"{review.players[c.seat]}: {c.call} · {call_note(c)}"
                                             for c in review.calls)), Text("")]
    if review.not_reviewed:
        parts += [Text("Not reviewed: " + "; ".join(review.not_reviewed)), Text("")]
    if review.ramsch:
        if review.decisions:
            parts += [ramsch_table(review, german), Text("")]
        return Group(*parts, summary_table(review), Text(RAMSCH_LEGEND, style="dim"), Text(""))
    if review.decisions:
        parts += [decisions_table(review, german), Text("")]
    return Group(
        *parts,
        summary_table(review),
        Text(f"{review.player} at {budget} a decision, seed {review.seed}.  {LEGEND}", style="dim"),
        Text(""),
    )
