"""Progress over the practice history: trends of the headline figures, the weakest areas and
the weakest interview question types, in the terminal (rich) and as a self-contained HTML page.

A trend compares the mean of a figure over the first sessions that measured it with its mean
over the last ones: up to :data:`WINDOW` sessions each, fewer when fewer exist so that the two
groups never share a session (2 or 3 sessions: the first against the last; 4 or 5: the first 2
against the last 2; 6 or more: the first 3 against the last 3). Whether a change is better
depends on the figure (:data:`METRICS`): pace is better the closer it comes to its band,
fillers, long pauses and hedges are better lower, pitch spread is better higher until it
reaches its target, STAR coverage is better higher.

Everything shown is a measured figure, its target and how it changed; nothing is praised.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from coach.files import write_text_atomic
from coach.history import TREND_METRICS, History, SessionRecord, Targets, Weakness
from coach.render.common import clock

if TYPE_CHECKING:
    from matplotlib.axes import Axes

logger = logging.getLogger(__name__)

WINDOW = 3
"""Most sessions averaged at each end of a trend."""

QUESTION_TYPES_SHOWN = 5
"""Most question types listed, lowest score first."""

DEFAULT_TARGETS = Targets()
"""The targets figures are judged against unless told otherwise (frozen, so shared)."""

MAX_TABLE_ROWS = 30
"""Most sessions listed in the terminal table (the most recent ones); the HTML lists all."""


# --- what each figure means ------------------------------------------------------------------


@dataclass(frozen=True)
class MetricSpec:
    """How one figure of the history is shown and judged."""

    metric: str
    """Its name in :data:`coach.history.TREND_METRICS`."""
    label: str
    """What it is called in sentences and tables ("Pace")."""
    unit: str
    """Its unit as printed after a value ("wpm", "semitones"; "" for per-minute rates, whose
    label names the unit, and for shares)."""
    better: str
    """Which way is better: "band" (closer to the pace band), "lower", "higher", or
    "higher_to_target" (higher until the target is reached, then equal)."""
    same_within: float
    """Changes of the distance from the target smaller than this (in the figure's units)
    count as "same" (coach's heuristic)."""
    decimals: int = 1
    """Decimals shown."""
    share: bool = False
    """The figure is a share 0..1, shown as a percentage."""


METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("wpm", "Pace", "wpm", "band", 5.0, decimals=0),
    MetricSpec("fillers_per_min", "Fillers per minute", "", "lower", 0.3),
    MetricSpec("long_pauses_per_min", "Long pauses per minute", "", "lower", 0.3),
    MetricSpec("pitch_spread_st", "Pitch spread", "semitones", "higher_to_target", 0.2),
    MetricSpec("hedges_per_min", "Hedges per minute", "", "lower", 0.3),
    MetricSpec("star_coverage", "STAR coverage", "", "higher", 0.05, decimals=0, share=True),
)
"""The figures whose trend is shown, in order. Only those named in
:data:`coach.history.TREND_METRICS` are used (hedges per minute appears once the history
offers it); duration, total pause time, raw counts and volume spread have no better
direction and are left out."""

DIRECTIONS = ("better", "worse", "same", "n/a")
"""Values of :attr:`MetricTrend.direction`."""


def _target(spec: MetricSpec, targets: Targets) -> tuple[str, tuple[float, float] | None]:
    """The target of a figure in words, and its band of values (None: no target)."""
    t = targets
    if spec.metric == "wpm":
        lo, hi = t.pace_wpm
        return f"{lo:g}-{hi:g} wpm", (lo, hi)
    if spec.metric == "fillers_per_min":
        return f"at most {t.fillers_per_min:g} per minute", (0.0, t.fillers_per_min)
    if spec.metric == "long_pauses_per_min":
        return f"at most {t.long_pauses_per_min:g} per minute", (0.0, t.long_pauses_per_min)
    if spec.metric == "pitch_spread_st":
        return f"at least {t.pitch_spread_st:g} semitones", (t.pitch_spread_st, math.inf)
    if spec.metric == "star_coverage":
        return f"at least {t.star_coverage:.0%} of the STAR parts", (t.star_coverage, 1.0)
    return "", None


def _miss(spec: MetricSpec, value: float, band: tuple[float, float] | None) -> float:
    """How bad a value is, in the figure's units (0: as good as it gets for "band" and
    "higher_to_target"; lower is better for every kind)."""
    if spec.better == "band" and band is not None:
        lo, hi = band
        return max(lo - value, 0.0, value - hi)
    if spec.better == "higher_to_target" and band is not None:
        return max(band[0] - value, 0.0)
    if spec.better in ("higher", "higher_to_target"):
        return -value
    return value


def format_value(spec: MetricSpec, value: float, *, unit: bool = True) -> str:
    """A value as shown: "142 wpm", "2.4", "75%"."""
    if spec.share:
        return f"{value * 100:.{spec.decimals}f}%"
    text = f"{value:.{spec.decimals}f}"
    return f"{text} {spec.unit}" if unit and spec.unit else text


# --- trends ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MetricTrend:
    """How one figure changed over the sessions that measured it."""

    metric: str
    """Its name in :data:`coach.history.TREND_METRICS` ("wpm", "fillers_per_min"...)."""
    label: str
    """What it is called ("Pace")."""
    unit: str
    """Its unit ("wpm", "semitones"; "" for per-minute rates and shares)."""
    points: list[tuple[str, float]]
    """``(started, value)`` per session that measured it, oldest first."""
    first: float
    """Mean over the first :attr:`window` sessions of :attr:`points`."""
    last: float
    """Mean over the last :attr:`window` sessions of :attr:`points`."""
    best: float
    """The best single session's value (closest to the band for pace, lowest for rates,
    highest for pitch spread and STAR coverage)."""
    change: float
    """``last - first``, in the figure's units."""
    direction: str
    """"better", "worse", "same" (the change is under the figure's tolerance, or both
    ends are on target for pace and pitch spread) or "n/a" (a single session)."""
    target: str
    """The target in words ("100-165 wpm"), or "" if the figure has none."""
    window: int = 1
    """How many sessions each of :attr:`first` and :attr:`last` averages (0 to 3)."""

    @property
    def sessions(self) -> int:
        """How many sessions measured the figure."""
        return len(self.points)


def window_size(n: int) -> int:
    """Sessions averaged at each end of a trend of ``n`` sessions: up to :data:`WINDOW`,
    and at most half of them so the two ends never share a session (1 for a single one)."""
    if n <= 1:
        return n
    return min(WINDOW, n // 2)


def _spec(metric: str) -> MetricSpec:
    return next(s for s in METRICS if s.metric == metric)


def trend_of(
    spec: MetricSpec, points: Sequence[tuple[str, float]], *, targets: Targets = DEFAULT_TARGETS
) -> MetricTrend | None:
    """The trend of one figure from its points (pure); None when there are no points.

    Args:
        spec: the figure.
        points: ``(started, value)`` per session, oldest first (as :meth:`History.trend`).
        targets: what the figure is judged against.
    """
    values = [v for _, v in points]
    if not values:
        return None
    target, band = _target(spec, targets)
    k = window_size(len(values))
    first = sum(values[:k]) / k
    last = sum(values[-k:]) / k
    if spec.better == "band" and band is not None:
        mid = (band[0] + band[1]) / 2
        best = min(values, key=lambda v: (_miss(spec, v, band), abs(v - mid)))
    else:
        best = min(values) if spec.better == "lower" else max(values)
    if len(values) < 2:
        direction = "n/a"
    else:
        delta = _miss(spec, last, band) - _miss(spec, first, band)
        direction = "same" if abs(delta) < spec.same_within else "better" if delta < 0 else "worse"
    return MetricTrend(
        metric=spec.metric,
        label=spec.label,
        unit=spec.unit,
        points=list(points),
        first=first,
        last=last,
        best=best,
        change=last - first,
        direction=direction,
        target=target,
        window=k,
    )


def trends(
    history: History, *, kind: str | None = None, targets: Targets = DEFAULT_TARGETS
) -> list[MetricTrend]:
    """The trend of every figure of :data:`METRICS` that the history offers and measured
    at least once, in :data:`METRICS` order.

    Args:
        history: the practice history (only read).
        kind: only sessions of this kind ("score", "rehearse", "interview"); None for all.
        targets: what the figures are judged against (as :meth:`History.weakest`).

    Raises:
        OptionsError: an unknown kind.
    """
    out = []
    for spec in METRICS:
        if spec.metric not in TREND_METRICS:
            continue
        t = trend_of(spec, history.trend(spec.metric, kind), targets=targets)
        if t is not None:
            out.append(t)
    return out


# --- sentences -------------------------------------------------------------------------------


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def trend_line(t: MetricTrend) -> str:
    """One sentence of figures: "Fillers per minute: 6.1 -> 2.4 over 7 sessions, mean of
    the first 3 vs the last 3 (better; target at most 3 per minute)"."""
    spec = _spec(t.metric)
    target = f"target {t.target}" if t.target else "no target"
    if t.direction == "n/a":
        return f"{t.label}: {format_value(spec, t.first)} in 1 session ({target})"
    span = (
        "first vs last session"
        if t.window == 1
        else f"mean of the first {t.window} vs the last {t.window}"
    )
    return (
        f"{t.label}: {format_value(spec, t.first, unit=False)} -> {format_value(spec, t.last)} "
        f"over {_plural(t.sessions, 'session')}, {span} ({t.direction}; {target})"
    )


def question_type_line(scores: Mapping[str, float]) -> str | None:
    """The weakest question type as a sentence of figures (None when there is none)."""
    if not scores:
        return None
    qt, score = min(scores.items(), key=lambda kv: (kv[1], kv[0]))
    return (
        f"Weakest question type: {qt}, mean answer score {score:.0%} "
        "(STAR coverage, 0 when the question was not addressed)"
    )


def summary_lines(
    trends: Sequence[MetricTrend],
    weaknesses: Sequence[Weakness],
    *,
    question_types: Mapping[str, float] | None = None,
) -> list[str]:
    """Plain sentences stating measured figures and targets: one per trend, then the weakest
    area (and any other area off target), then the weakest question type if given.

    Args:
        trends: from :func:`trends`.
        weaknesses: from :meth:`History.weakest`, weakest first.
        question_types: from :meth:`History.question_type_scores`, or None.
    """
    lines = [trend_line(t) for t in trends]
    for i, w in enumerate(weaknesses):
        lines.append(f"{'Weakest' if i == 0 else 'Also off target'}: {w.message}")
    if trends and not weaknesses:
        lines.append("No area missed its target in the recent sessions")
    qt = question_type_line(question_types or {})
    if qt:
        lines.append(qt)
    return lines


def empty_message(kind: str | None = None) -> str:
    """The one line shown when the history holds no session (of ``kind``)."""
    if kind is None:
        return "No sessions yet: run `coach score`, `coach rehearse` or `coach interview`"
    return f"No {kind} sessions yet: run `coach {kind}`"


# --- the sessions table ----------------------------------------------------------------------

SESSION_HEADERS = (
    "Date", "Kind", "Scenario", "Length", "Pace wpm", "Fillers /min", "Long pauses",
    "Pitch st", "STAR",
)  # fmt: skip
"""Column titles of the sessions table."""


def _num(value: float | None, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def session_cells(s: SessionRecord) -> list[str]:
    """One session's cells of the sessions table ("-" for a figure not measured)."""
    return [
        s.started[:16].replace("T", " "),
        s.kind,
        s.scenario,
        clock(s.duration_s) if s.duration_s is not None else "-",
        _num(s.wpm, ".0f"),
        _num(s.fillers_per_min, ".1f"),
        _num(s.long_pauses, "d"),
        _num(s.pitch_spread_st, ".1f"),
        _num(s.star_coverage, ".0%"),
    ]


def _meta(sessions: Sequence[SessionRecord]) -> str:
    """ "9 sessions (4 score, 2 rehearse, 3 interview), 2025-03-01 to 2025-03-09"."""
    by_kind = Counter(s.kind for s in sessions)
    kinds = ", ".join(f"{n} {k}" for k, n in by_kind.items())
    first, last = sessions[0].started[:10], sessions[-1].started[:10]
    dates = first if first == last else f"{first} to {last}"
    return f"{_plural(len(sessions), 'session')} ({kinds}), {dates}"


def _wants_question_types(history: History, kind: str | None) -> bool:
    return kind in (None, "interview") and history.count("interview") > 0


# --- terminal --------------------------------------------------------------------------------

_ARROWS = {"better": "green", "worse": "red", "same": "dim", "n/a": "dim"}


def _arrow(t: MetricTrend) -> Text:
    if t.direction == "n/a":
        return Text("-", style="dim")
    spec = _spec(t.metric)
    sign = "↑" if t.change > 0 else "↓" if t.change < 0 else "→"
    amount = format_value(spec, abs(t.change), unit=False)
    return Text(f"{sign} {amount} {t.direction}", style=_ARROWS[t.direction])


def _sessions_table(sessions: Sequence[SessionRecord]) -> Table:
    table = Table(
        title="Sessions", title_style="bold", title_justify="left", box=box.SIMPLE_HEAD,
        show_edge=False, padding=(0, 1, 0, 0),
    )  # fmt: skip
    for i, name in enumerate(SESSION_HEADERS):
        if name == "Scenario":
            table.add_column(name, overflow="ellipsis", no_wrap=True, max_width=28)
        elif i < 2:
            table.add_column(name, no_wrap=True)
        else:
            table.add_column(name, justify="right", no_wrap=True)
    for s in sessions:
        table.add_row(*(Text(c) for c in session_cells(s)))
    return table


def _trends_table(found: Sequence[MetricTrend]) -> Table:
    table = Table(
        title="Trends", title_style="bold", title_justify="left", box=box.SIMPLE_HEAD,
        show_edge=False, padding=(0, 1, 0, 0),
    )  # fmt: skip
    table.add_column("Figure", no_wrap=True)
    for name in ("First", "Last", "Change", "Best", "Sessions"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("Target", overflow="fold")
    for t in found:
        spec = _spec(t.metric)
        label = f"{t.label} ({t.unit})" if t.unit else t.label
        table.add_row(
            Text(label), Text(format_value(spec, t.first, unit=False)),
            Text(format_value(spec, t.last, unit=False)), _arrow(t),
            Text(format_value(spec, t.best, unit=False)), Text(str(t.sessions)),
            Text(t.target or "-"),
        )  # fmt: skip
    return table


def print_progress(
    history: History,
    console: Console | None = None,
    *,
    kind: str | None = None,
    targets: Targets = DEFAULT_TARGETS,
) -> None:
    """Print the progress report: the sessions (the last :data:`MAX_TABLE_ROWS`), the trends
    with arrows, the weakest areas over the last 5 sessions and, when there are interview
    sessions, the weakest question types. An empty history prints one line saying which
    command records a session.

    Args:
        history: the practice history (only read).
        console: where to print; a new stdout Console if None.
        kind: only sessions of this kind; None for all.
        targets: what the figures are judged against.

    Raises:
        OptionsError: an unknown kind.
    """
    console = console or Console()
    sessions = history.sessions(kind)
    if not sessions:
        console.print(Text(empty_message(kind)), highlight=False)
        if kind is None:
            _print_drills(history, console, [])
        return
    console.print(Rule(Text("Progress", style="bold"), align="left"))
    console.print(Text("  " + _meta(sessions), style="dim"), highlight=False)
    shown = sessions[-MAX_TABLE_ROWS:]
    console.print(_sessions_table(shown), highlight=False)
    if len(shown) < len(sessions):
        hidden = len(sessions) - len(shown)
        console.print(Text(f"  {_plural(hidden, 'earlier session')} not shown", style="dim"))
    found = trends(history, kind=kind, targets=targets)
    if found:
        console.print(Text(""))
        console.print(_trends_table(found), highlight=False)
        console.print(
            Text(
                f"  First and Last: means of up to the first and last {WINDOW} sessions that "
                "measured each figure.",
                style="dim",
            ),
            highlight=False,
        )
    console.print(Text(""))
    console.print(Text("Weakest areas", style="bold"))
    weak = history.weakest(kind, targets=targets)
    if weak:
        for i, w in enumerate(weak, 1):
            console.print(Text(f"  {i}. {w.message}"), highlight=False)
    else:
        console.print(Text("  No area missed its target over the last 5 sessions."))
    if kind is None:
        _print_drills(history, console, weak)
    if _wants_question_types(history, kind):
        scores = history.question_type_scores("interview")
        if scores:
            console.print(Text(""))
            console.print(
                Text.assemble(
                    ("Weakest question types", "bold"),
                    (" (mean answer score: STAR coverage, 0 when not addressed)", "dim"),
                )
            )
            for qt, score in list(scores.items())[:QUESTION_TYPES_SHOWN]:
                console.print(Text(f"  {score:>4.0%}  {qt}"), highlight=False)


def _print_drills(history: History, console: Console, weak: Sequence[Weakness]) -> None:
    """The drills' runs and scores (``coach drill``), and the drill for the weakest area."""
    from coach.drills.summary import suggestion, summarize, summary_line

    found = summarize(history.drills())
    if found:
        console.print(Text(""))
        console.print(Text("Drills", style="bold"))
        for d in found:
            console.print(Text("  " + summary_line(d)), highlight=False)
    line = suggestion(weak)
    if line:
        console.print(Text(""))
        console.print(Text(line), highlight=False)


# --- HTML ------------------------------------------------------------------------------------

_RC = {"svg.fonttype": "none", "svg.hashsalt": "coach", "font.size": 8}
"""matplotlib settings of the charts (as coach.render.html): text stays text, ids are
stable between runs."""


def _date_labels(points: Sequence[tuple[str, float]]) -> list[str]:
    """Tick label per point: month-day, or year-month-day when the points span years."""
    years = {started[:4] for started, _ in points}
    cut = 2 if len(years) > 1 else 5
    return [started[cut:10] for started, _ in points]


def trend_chart(t: MetricTrend, *, targets: Targets = DEFAULT_TARGETS) -> str:
    """One figure over the sessions that measured it, as inline SVG: a line with a dot per
    session (x: session, oldest first, labelled with its date), the target band shaded green
    and the two means compared drawn as dashed segments over their sessions."""
    import numpy as np
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    from coach.render.html import new_figure, svg_element

    spec = _spec(t.metric)
    scale = 100.0 if spec.share else 1.0
    m = len(t.points)
    x = np.arange(1, m + 1)
    y = np.array([v for _, v in t.points]) * scale
    _, band = _target(spec, targets)
    top = float(y.max(initial=0.0))
    if band is not None and math.isfinite(band[1]):
        top = max(top, band[1] * scale)
    elif band is not None:
        top = max(top, band[0] * scale * 1.5)
    top = top * 1.15 if top > 0 else 1.0
    if spec.share:
        top = 105.0
    fig = new_figure(2.0)
    ax: Axes = fig.add_subplot()
    if band is not None:
        lo, hi = band[0] * scale, min(band[1] * scale, top)
        ax.axhspan(lo, hi, color="#d8f0dc", lw=0, label=f"target {t.target}")
    ax.plot(x, y, color="#3b5b8c", lw=1.2, marker="o", ms=3.5)
    if m >= 2:
        k = t.window
        ax.hlines(
            [t.first * scale, t.last * scale], [1 - 0.3, m - k + 1 - 0.3], [k + 0.3, m + 0.3],
            colors="#333", linestyles="dashed", lw=0.9, label=f"means compared ({t.direction})",
        )  # fmt: skip
    labels = _date_labels(t.points)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=True))
    ax.xaxis.set_major_formatter(
        FuncFormatter(lambda v, _pos: labels[int(v) - 1] if v == int(v) and 1 <= v <= m else "")
    )
    ax.set_xlim(0.5, m + 0.5)
    ax.set_ylim(0, top)
    ax.set_xlabel("session, oldest first (date)")
    ax.set_ylabel("%" if spec.share else spec.unit or "per minute")
    ax.grid(axis="y", color="#eee", lw=0.6)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if band is not None or m >= 2:
        ax.legend(loc="lower right", bbox_to_anchor=(1, 1), fontsize=7, ncols=2, frameon=False)
    return svg_element(fig, f"trend-{t.metric.replace('_', '-')}")


def _html_sessions_table(sessions: Sequence[SessionRecord]) -> str:
    from coach.render.html import escape

    head = "".join(f"<th>{escape(h)}</th>" for h in SESSION_HEADERS)
    rows = []
    for s in sessions:
        cells = session_cells(s)
        text = "".join(f"<td>{escape(c)}</td>" for c in cells[:3])
        nums = "".join(f'<td class="num">{escape(c)}</td>' for c in cells[3:])
        rows.append(f"<tr>{text}{nums}</tr>")
    return f"<table>\n<tr>{head}</tr>\n" + "\n".join(rows) + "\n</table>"


def _html_drills(history: History, weak: Sequence[Weakness]) -> str:
    """The drills' runs and scores, and the suggested drill, as HTML ("" without either)."""
    from coach.drills.summary import suggestion, summarize, summary_line
    from coach.render.html import escape

    parts = []
    found = summarize(history.drills())
    if found:
        items = "\n".join(f"<li>{escape(summary_line(d))}</li>" for d in found)
        parts.append(f"<h2>Drills</h2>\n<ul>\n{items}\n</ul>")
    line = suggestion(weak)
    if line:
        parts.append(f"<p>{escape(line)}</p>")
    return "\n".join(parts)


def progress_html(
    history: History, *, kind: str | None = None, targets: Targets = DEFAULT_TARGETS
) -> str:
    """The progress report as one self-contained HTML page (inline CSS and SVG; nothing is
    loaded from outside): the summary sentences, one chart per figure, the sessions, the
    weakest areas and, when there are interview sessions, the weakest question types.

    Args:
        history: the practice history (only read).
        kind: only sessions of this kind; None for all.
        targets: what the figures are judged against.

    Raises:
        OptionsError: an unknown kind.
    """
    import matplotlib as mpl

    from coach.render.html import document, escape, figure_html

    title = "coach progress" + (f": {kind}" if kind else "")
    sessions = history.sessions(kind)
    if not sessions:
        body = f"<h1>{escape(title)}</h1>\n<p>{escape(empty_message(kind))}.</p>"
        if kind is None:
            body += _html_drills(history, [])
        return document(title, body)
    found = trends(history, kind=kind, targets=targets)
    weak = history.weakest(kind, targets=targets)
    scores = history.question_type_scores("interview") if _wants_question_types(
        history, kind
    ) else {}  # fmt: skip
    body = [f"<h1>{escape(title)}</h1>", f'<p class="meta">{escape(_meta(sessions))}</p>']
    lines = summary_lines(found, weak, question_types=scores)
    body.append("<h2>Summary</h2>\n<ul>\n" + "\n".join(f"<li>{escape(s)}</li>" for s in lines))
    body.append("</ul>")
    if found:
        body.append("<h2>Trends</h2>")
        with mpl.rc_context(_RC):
            for t in found:
                caption = f"{trend_line(t)}. Dots: one per session that measured it" + (
                    "; green: the target." if t.target else "."
                )
                body.append(figure_html(t.label, trend_chart(t, targets=targets), caption))
    body.append("<h2>Sessions</h2>\n" + _html_sessions_table(sessions))
    body.append("<h2>Weakest areas</h2>")
    if weak:
        body.append("<ol>\n" + "\n".join(f"<li>{escape(w.message)}</li>" for w in weak) + "\n</ol>")
    else:
        body.append('<p class="note">No area missed its target over the last 5 sessions.</p>')
    if kind is None:
        body.append(_html_drills(history, weak))
    if scores:
        rows = "\n".join(
            f'<tr><td>{escape(qt)}</td><td class="num">{score:.0%}</td></tr>'
            for qt, score in list(scores.items())[:QUESTION_TYPES_SHOWN]
        )
        body.append(
            "<h2>Weakest question types</h2>\n"
            '<p class="meta">Mean answer score over the interview answers: STAR coverage, '
            "0 when the question was not addressed.</p>\n"
            f"<table>\n<tr><th>Question type</th><th>Score</th></tr>\n{rows}\n</table>"
        )
    return document(title, "\n".join(body))


def write_progress_html(
    history: History,
    path: Path | str,
    *,
    kind: str | None = None,
    targets: Targets = DEFAULT_TARGETS,
) -> Path:
    """Write :func:`progress_html` to ``path`` atomically (a crash leaves the old page or the
    new one); its folder is created if missing. Returns the path written.

    Raises:
        CoachError: the page cannot be written.
        OptionsError: an unknown kind.
    """
    page = progress_html(history, kind=kind, targets=targets)
    path = write_text_atomic(path, page)
    logger.info("wrote %s", path)
    return path


__all__ = [
    "DIRECTIONS", "METRICS", "WINDOW", "MetricSpec", "MetricTrend", "empty_message",
    "format_value", "print_progress", "progress_html", "session_cells", "summary_lines",
    "trend_chart", "trend_line", "trend_of", "trends", "window_size", "write_progress_html",
]  # fmt: skip
