"""Scoring of the drills: pure functions from a clip's report to a dataclass.

Nothing here records, loads a model or reads the history: the figures come from the
:class:`coach.report.ClipReport` that ``coach score`` gives for the same recording, and the
previous runs come in as a list of scores.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from coach.analysis.tips import TipOptions
from coach.errors import OptionsError
from coach.report import ClipReport, ReportWord
from coach.targets import FILLERS_PER_MIN, PACE_BAND_WPM

# --- pauses ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PausesDrillOptions:
    """What counts as a filler replaced by a pause."""

    min_pause_s: float = 0.3
    """Shortest pause that replaces a filler, seconds (issue 10: 0.3-1.5 s; shorter gaps
    are not heard as a pause)."""
    max_pause_s: float = 1.5
    """Longest pause that replaces a filler, seconds (the long-pause threshold: longer, the
    listener hears a stall)."""
    beside_filler_s: float = 0.3
    """A pause that ends this close before a filler starts, or starts this close after one
    ends, belongs to that filler (the filler was still said): it replaces nothing."""

    def __post_init__(self) -> None:
        if not 0 < self.min_pause_s < self.max_pause_s:
            raise OptionsError(
                "the pauses drill needs 0 < min_pause_s < max_pause_s (seconds), got "
                f"{self.min_pause_s} and {self.max_pause_s}"
            )


@dataclass(frozen=True)
class PausesScore:
    """The pauses drill: of the moments where the speaker hesitated (a filler, or a silent
    pause of at least ``min_pause_s``), the share that were silent pauses of 0.3-1.5 s."""

    score: float | None
    """``pauses_in_range / moments``, 0..1; None when there was no moment to judge."""
    moments: int
    """Fillers plus pauses of at least ``min_pause_s`` that are not beside a filler."""
    pauses_in_range: int
    """Pauses of ``min_pause_s`` to ``max_pause_s`` not beside a filler: the replacements."""
    pauses_too_long: int
    """Pauses longer than ``max_pause_s`` not beside a filler (stalls)."""
    pauses_beside_fillers: int
    """Pauses of at least ``min_pause_s`` next to a filler (not counted as replacements)."""
    fillers: int
    """Fillers left in (every kind: um, uh, you know, like...)."""
    filler_times_s: list[float] = field(default_factory=list)
    """Start of every filler, seconds."""
    pause_range_s: tuple[float, float] = (0.3, 1.5)
    """The pause lengths that count as a replacement, seconds."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        d = asdict(self)
        d["pause_range_s"] = list(self.pause_range_s)
        return d


def score_pauses(
    report: ClipReport, options: PausesDrillOptions = PausesDrillOptions()
) -> PausesScore:
    """Score the pauses drill on a recording's report.

    Args:
        report: the drill's report (its fillers and its silent pauses with their times).
        options: the pause lengths that count.

    Returns:
        The share of hesitation moments that were silent pauses of the right length.
    """
    o = options
    fillers = report.fillers.items
    near = o.beside_filler_s
    in_range = too_long = beside = 0
    for p in report.pauses.items:
        d = p.end_s - p.start_s
        if d < o.min_pause_s:
            continue
        if any(p.end_s - near <= f.start_s <= p.end_s + near
               or p.start_s - near <= f.end_s <= p.start_s + near for f in fillers):  # fmt: skip
            beside += 1
        elif d <= o.max_pause_s:
            in_range += 1
        else:
            too_long += 1
    moments = len(fillers) + in_range + too_long
    return PausesScore(
        score=round(in_range / moments, 3) if moments else None,
        moments=moments,
        pauses_in_range=in_range,
        pauses_too_long=too_long,
        pauses_beside_fillers=beside,
        fillers=len(fillers),
        filler_times_s=[round(f.start_s, 2) for f in fillers],
        pause_range_s=(o.min_pause_s, o.max_pause_s),
    )


# --- pace ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PaceWindow:
    """One window of the pace drill."""

    start_s: float
    """Start, seconds."""
    end_s: float
    """End, seconds."""
    words: int
    """Lexical words whose middle falls in the window."""
    wpm: float
    """Its pace, words per minute."""
    in_band: bool
    """The pace was inside the band (the ends included)."""


@dataclass(frozen=True)
class PaceScore:
    """The pace drill: the share of windows whose pace was inside the band."""

    score: float | None
    """``windows_in_band / len(windows)``, 0..1; None when no window could be judged."""
    band_wpm: tuple[float, float]
    """The band held, words per minute."""
    windows: list[PaceWindow]
    """The windows, in time order (back to back from the first word)."""
    windows_in_band: int
    """How many were inside the band."""
    wpm: float
    """Pace over the whole drill, words per minute (as the report's)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        d = asdict(self)
        d["band_wpm"] = list(self.band_wpm)
        return d


def lexical(words: Sequence[ReportWord]) -> list[ReportWord]:
    """The words that count for pace: neither fillers nor cut-off fragments ("mon-")."""
    out = []
    for w in words:
        text = w.text.strip().rstrip(",.?!")
        if w.filler or not text or text.endswith("-") or text.startswith("-"):
            continue
        out.append(w)
    return out


def score_pace(
    report: ClipReport,
    *,
    band_wpm: tuple[float, float] = PACE_BAND_WPM,
    window_s: float = 10.0,
    min_window_s: float = 5.0,
) -> PaceScore:
    """Score the pace drill: back-to-back windows of ``window_s`` from the first word to the
    last, each judged in or out of the band.

    Args:
        report: the drill's report.
        band_wpm: the band to hold, words per minute (low, high).
        window_s: window length, seconds (issue 10: 10 s).
        min_window_s: the last, shorter window is judged when at least this long, seconds
            (its pace is scaled to its length); shorter, it is left out.

    Raises:
        OptionsError: a band that is not two increasing positive figures, or bad windows.
    """
    lo, hi = band_wpm
    if not 0 < lo < hi:
        raise OptionsError(f"pace band must be two increasing positive wpm, not {lo}-{hi}")
    if not 0 < min_window_s <= window_s:
        raise OptionsError("pace windows need 0 < min_window_s <= window_s (seconds)")
    words = lexical(report.words)
    windows: list[PaceWindow] = []
    if words:
        start, end = words[0].start_s, max(w.end_s for w in words)
        mids = [(w.start_s + w.end_s) / 2 for w in words]
        a = start
        while a < end:
            b = min(a + window_s, end)
            if b - a < min_window_s and windows:
                break
            n = sum(1 for m in mids if a <= m < b or (b == end and m == end))
            span = max(b - a, min_window_s)
            wpm = round(n / span * 60, 1)
            windows.append(PaceWindow(round(a, 2), round(b, 2), n, wpm, lo <= wpm <= hi))
            a += window_s
        if len(windows) == 1 and windows[0].end_s - windows[0].start_s < min_window_s:
            windows = []  # under min_window_s of speech in all: nothing to judge
    inside = sum(w.in_band for w in windows)
    return PaceScore(
        score=round(inside / len(windows), 3) if windows else None,
        band_wpm=(float(lo), float(hi)),
        windows=windows,
        windows_in_band=inside,
        wpm=report.pace.wpm,
    )


def personal_band(
    wpms: Sequence[float],
    *,
    recommended: tuple[float, float] = PACE_BAND_WPM,
    half_width_wpm: float = 15.0,
    min_sessions: int = 3,
    last_n: int = 10,
) -> tuple[tuple[float, float], str]:
    """The pace band of the pace drill from your own history.

    Your median pace over your last ``last_n`` sessions, moved inside the recommended band
    if it is outside it, plus and minus ``half_width_wpm``: a band narrow enough to need
    holding, around the pace you already speak at (coach's heuristic).

    Args:
        wpms: the pace of each earlier session, oldest first, words per minute.
        recommended: the recommended band (:data:`coach.targets.PACE_BAND_WPM`).
        half_width_wpm: half the band's width.
        min_sessions: with fewer sessions, the recommended band is used.
        last_n: how many recent sessions the median is taken over.

    Returns:
        ``((low, high), where it came from in words)``.
    """
    lo, hi = recommended
    recent = [float(w) for w in wpms if w and w > 0][-last_n:]
    if len(recent) < min_sessions or hi - lo <= 2 * half_width_wpm:
        return (float(lo), float(hi)), f"the recommended {lo:g}-{hi:g} wpm"
    median = statistics.median(recent)
    centre = min(max(median, lo + half_width_wpm), hi - half_width_wpm)
    band = (round(centre - half_width_wpm), round(centre + half_width_wpm))
    moved = "" if centre == median else f", moved inside the recommended {lo:g}-{hi:g} wpm"
    why = (
        f"your median pace over your last {len(recent)} sessions, {median:.0f} wpm{moved}, "
        f"± {half_width_wpm:g} wpm"
    )
    return (float(band[0]), float(band[1])), why


def pace_needle(wpm: float | None, band_wpm: tuple[float, float], *, width: int = 41) -> str:
    """A one-line pace needle: the band as ``[===]`` on a scale from 40 wpm below it to 40
    above, and ``●`` at the current pace (``?`` without one yet).

    >>> pace_needle(130, (120, 150), width=21)
    'slow ───────[=●===]─────── fast  130 wpm (band 120-150)'
    """
    lo, hi = band_wpm
    a, b = lo - 40, hi + 40

    def col(v: float) -> int:
        return min(width - 1, max(0, round((v - a) / (b - a) * (width - 1))))

    cells = ["─"] * width
    for i in range(col(lo), col(hi) + 1):
        cells[i] = "="
    cells[col(lo)], cells[col(hi)] = "[", "]"
    if wpm is not None:
        cells[col(wpm)] = "●"
    now = f"{wpm:.0f} wpm" if wpm is not None else "- wpm"
    return f"slow {''.join(cells)} fast  {now} (band {lo:g}-{hi:g})"


# --- opening ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpeningCheck:
    """One thing the first minute is judged on."""

    area: str
    """"pace", "fillers", "pauses" or "volume"."""
    value: float | None
    """The measured figure (None: too little speech to judge it)."""
    target: str
    """The target, in words."""
    passed: bool | None
    """On target (None: not judged)."""
    message: str
    """One line: the figure and the target."""


@dataclass(frozen=True)
class OpeningScore:
    """The opening drill: the share of the first minute's checks on target."""

    score: float | None
    """Checks passed / checks judged, 0..1; None when none could be judged."""
    checks: list[OpeningCheck]
    """Pace, fillers, pauses and volume, in that order."""
    speaking_s: float
    """Speaking time judged, seconds."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)


def score_opening(
    report: ClipReport,
    *,
    band_wpm: tuple[float, float] = PACE_BAND_WPM,
    fillers_per_min: float = FILLERS_PER_MIN,
    max_long_pauses: int = 1,
    trail_off_share: float = TipOptions().trail_off_share,
) -> OpeningScore:
    """Score an opening (the drill records at most its first 60 s of speech).

    Checks: the pace inside ``band_wpm`` (judged from 10 s of speaking); fillers per minute
    at most ``fillers_per_min``; at most ``max_long_pauses`` long pauses (one deliberate
    pause is fine, more are stalls; coach's heuristic); sentences trailing off in volume at
    most ``trail_off_share`` of those judged (the tips' threshold; judged from 2 sentences).
    """
    lo, hi = band_wpm
    spoke = report.ok and report.word_count > 0
    pace = report.pace
    checks: list[OpeningCheck] = []
    band = f"{lo:g}-{hi:g} wpm"
    if spoke and pace.speaking_s >= 10:
        ok = lo <= pace.wpm <= hi
        checks.append(OpeningCheck("pace", pace.wpm, band, ok, f"pace {pace.wpm:.0f} wpm, "
                                   f"{'inside' if ok else 'outside'} the {band} band"))  # fmt: skip
    else:
        checks.append(OpeningCheck("pace", None, band, None, "pace: under 10 s of speech"))
    target = f"at most {fillers_per_min:g} per minute"
    if spoke:
        rate, n = report.fillers.per_minute, report.fillers.count
        ok = rate <= fillers_per_min
        checks.append(OpeningCheck("fillers", rate, target, ok,
                                   f"{n} filler{'s' if n != 1 else ''} ({rate:.1f} per minute; "
                                   f"target {target})"))  # fmt: skip
    else:
        checks.append(OpeningCheck("fillers", None, target, None, "fillers: no speech"))
    long_s = report.pauses.long_threshold_s
    target = (
        f"at most {max_long_pauses} pause{'s' if max_long_pauses != 1 else ''} over {long_s:g} s"
    )
    if spoke:
        n = report.pauses.long_count
        ok = n <= max_long_pauses
        said = f"{n} long pause{'s' if n != 1 else ''} (target {target})"
        checks.append(OpeningCheck("pauses", float(n), target, ok, said))
    else:
        checks.append(OpeningCheck("pauses", None, target, None, "pauses: no speech"))
    energy = report.energy
    target = f"at most {trail_off_share:.0%} of sentences trailing off"
    if spoke and energy.sentences >= 2:
        share = len(energy.trail_offs) / energy.sentences
        ok = share <= trail_off_share
        checks.append(OpeningCheck("volume", round(share, 3), target, ok,
                                   f"{len(energy.trail_offs)} of {energy.sentences} sentences "
                                   f"trailed off in volume (target {target})"))  # fmt: skip
    else:
        checks.append(OpeningCheck("volume", None, target, None, "volume: under 2 sentences"))
    judged = [c for c in checks if c.passed is not None]
    passed = sum(1 for c in judged if c.passed)
    return OpeningScore(
        score=round(passed / len(judged), 3) if judged else None,
        checks=checks,
        speaking_s=round(pace.speaking_s, 2),
    )


# --- against the previous runs ---------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """A drill's score against your previous runs of the same drill."""

    runs_before: int
    """Earlier runs with a score."""
    last: float | None
    """The previous run's score (None: no earlier run)."""
    best: float | None
    """The best earlier score (None: no earlier run)."""
    change: float | None
    """This score less the previous one (None: no earlier run or no score now)."""
    new_best: bool
    """This score beats every earlier one (False on a first run)."""

    def line(self, score: float | None) -> str:
        """One line for the person: the change from the previous run and the best before."""
        if self.runs_before == 0 or self.last is None:
            return "first scored run of this drill"
        if score is None or self.change is None:
            return f"previous run {self.last:.0%}, best {self.best:.0%}"
        sign = "+" if self.change > 0 else "-" if self.change < 0 else "±"
        best = "; a new best" if self.new_best else f"; best before {self.best:.0%}"
        return (
            f"{sign}{abs(self.change) * 100:.0f} points on the previous run ({self.last:.0%}){best}"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)


def standing(score: float | None, previous: Sequence[float | None]) -> Standing:
    """``score`` against the earlier scores of the same drill (oldest first; None skipped)."""
    before = [float(s) for s in previous if s is not None]
    if not before:
        return Standing(0, None, None, None, False)
    last, best = before[-1], max(before)
    change = None if score is None else round(score - last, 3)
    return Standing(len(before), last, best, change, score is not None and score > best)


# --- which drill for which weakness ----------------------------------------------------------

DRILL_FOR_METRIC: dict[str, str] = {
    "fillers_per_min": "pauses",
    "long_pauses_per_min": "pauses",
    "wpm": "pace",
}
"""The drill that works on each figure :func:`coach.history.weaknesses` can flag; figures
no drill trains (pitch spread, STAR coverage) are not here."""


def suggest_drill(weak_metrics: Sequence[str]) -> str | None:
    """The drill for the weakest measured area that a drill trains (``weak_metrics``
    weakest first, as :func:`coach.history.weaknesses` orders them), or None."""
    for metric in weak_metrics:
        if metric in DRILL_FOR_METRIC:
            return DRILL_FOR_METRIC[metric]
    return None
