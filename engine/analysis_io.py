"""Analyses as plain data (JSON) for the command line and saved games."""

from __future__ import annotations

from .analysis import Analysis


def analysis_to_dict(analysis: Analysis | None) -> dict:
    if analysis is None:
        return {}
    return {
        "player": analysis.player,
        "legal": [str(c) for c in analysis.legal],
        "chosen": str(analysis.chosen) if analysis.chosen is not None else None,
        "simulations": analysis.simulations,
        "elapsed": round(analysis.elapsed, 4),
        "limit": {"time": analysis.limit.time, "simulations": analysis.limit.simulations} if analysis.limit else None,
        "null_game": analysis.null_game,
        "note": analysis.note,
        "effective_worlds": round(analysis.effective_worlds, 1) if analysis.effective_worlds is not None else None,
        "cards": {
            str(s.card): {
                "simulations": s.simulations,
                "mean": round(s.mean, 4),
                "std": round(s.std, 4),
                "evaluation": round(s.evaluation, 4),
                "win_share": round(s.win_share, 4),
                "histogram": list(s.histogram),
            }
            for s in analysis.cards
        },
    }
