"""The drills in ``coach progress``: each drill's runs and scores, and the drill to do next
(pure: from history records to dataclasses and lines)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from coach.drills import DRILLS
from coach.drills.scoring import suggest_drill

if TYPE_CHECKING:
    from coach.history import DrillRecord, Weakness


@dataclass(frozen=True)
class DrillSummary:
    """One drill's runs in the history."""

    drill: str
    """The drill's name."""
    runs: int
    """Runs recorded."""
    scored: int
    """Runs with a score."""
    first: float | None
    """The first scored run's score, 0..1."""
    last: float | None
    """The last scored run's score, 0..1."""
    best: float | None
    """The best score, 0..1."""
    last_started: str
    """When the last run started, ISO 8601."""


def summarize(runs: Sequence[DrillRecord]) -> list[DrillSummary]:
    """One summary per drill that has runs, in the order of :data:`coach.drills.DRILLS`
    (others after, by name); ``runs`` oldest first."""
    by: dict[str, list[DrillRecord]] = {}
    for r in runs:
        by.setdefault(r.drill, []).append(r)
    order = [d for d in DRILLS if d in by] + sorted(d for d in by if d not in DRILLS)
    out = []
    for d in order:
        rs = by[d]
        scores = [r.score for r in rs if r.score is not None]
        out.append(
            DrillSummary(
                drill=d,
                runs=len(rs),
                scored=len(scores),
                first=scores[0] if scores else None,
                last=scores[-1] if scores else None,
                best=max(scores) if scores else None,
                last_started=rs[-1].started,
            )  # fmt: skip
        )
    return out


def summary_line(s: DrillSummary) -> str:
    """ "pauses: 3 runs, last 47%, best 52%, first 30%"."""
    runs = f"{s.runs} run{'s' if s.runs != 1 else ''}"
    if s.last is None:
        return f"{s.drill}: {runs}, none scored"
    text = f"{s.drill}: {runs}, last {s.last:.0%}, best {s.best:.0%}"
    if s.scored > 1 and s.first is not None:
        text += f", first {s.first:.0%}"
    return text + f" (last run {s.last_started[:16].replace('T', ' ')})"


def suggestion(weaknesses: Sequence[Weakness]) -> str | None:
    """The line suggesting the drill for the weakest measured area a drill trains, or None
    (no weakness, or only ones no drill trains)."""
    drill = suggest_drill([w.metric for w in weaknesses])
    if drill is None:
        return None
    why = next(w for w in weaknesses if suggest_drill([w.metric]) == drill)
    return f"Suggested drill: coach drill {drill} ({why.message})"
