"""Speaking pace: words per minute, articulation rate, and a timeline of pace."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from coach.errors import OptionsError
from coach.targets import PACE_BAND_WPM
from coach.transcript import Word


@dataclass(frozen=True)
class PaceOptions:
    """Pace thresholds."""

    band_wpm: tuple[float, float] = PACE_BAND_WPM
    """Recommended pace band in words per minute (:data:`coach.targets.PACE_BAND_WPM`:
    PowerPoint Speaker Coach's 100-165 wpm)."""
    window_s: float = 10.0
    """Length of a timeline window in seconds."""
    hop_s: float = 5.0
    """Step between timeline windows in seconds."""
    voiced_edges: bool = True
    """Measure the speaking span from the voice around the first and last words
    (:func:`voiced_span`); False uses Whisper's word edges (coach before issue 8)."""
    min_window_words: int = 6
    """A window with fewer lexical words than this is not judged (too little to measure)."""

    def __post_init__(self) -> None:
        lo, hi = self.band_wpm
        if not 0 < lo < hi:
            raise OptionsError(f"pace band must be two increasing positive wpm, not {lo}-{hi}")
        if self.window_s <= 0 or self.hop_s <= 0:
            raise OptionsError("pace window_s and hop_s must be positive seconds")


@dataclass(frozen=True)
class PacePoint:
    """Pace in one timeline window."""

    start_s: float
    """Window start in seconds."""
    end_s: float
    """Window end in seconds."""
    wpm: float
    """Lexical words per minute in the window (0 if not judged)."""
    words: int
    """Lexical words whose middle falls in the window."""
    flag: str | None
    """"fast", "slow" or None (inside the band, or too few words to judge)."""


@dataclass(frozen=True)
class PaceStretch:
    """A stretch of consecutive windows outside the band."""

    start_s: float
    """Start in seconds."""
    end_s: float
    """End in seconds."""
    flag: str
    """"fast" or "slow"."""
    wpm: float
    """Mean pace over the stretch in words per minute."""


@dataclass
class PaceStats:
    """Pace of a clip."""

    wpm: float = 0.0
    """Lexical words per minute over the speaking span (from the voice around the first
    word's start to the voice around the last word's end)."""
    articulation_wpm: float = 0.0
    """Lexical words per minute of the speaking span less its silent pauses."""
    speaking_s: float = 0.0
    """Speaking span in seconds."""
    band_wpm: tuple[float, float] = PACE_BAND_WPM
    """The recommended band used for flags."""
    timeline: list[PacePoint] = field(default_factory=list)
    """Pace per window."""
    stretches: list[PaceStretch] = field(default_factory=list)
    """Merged runs of windows outside the band."""

    def to_dict(self) -> dict:
        d = asdict(self)
        d["band_wpm"] = list(self.band_wpm)
        return d


def speaking_span(words: list[Word]) -> tuple[float, float]:
    """(first word start, last word end) in seconds; (0, 0) without words."""
    if not words:
        return 0.0, 0.0
    return words[0].start_s, max(w.end_s for w in words)


def voiced_span(
    lexical: list[Word], words: list[Word], voice: list[tuple[float, float]]
) -> tuple[float, float]:
    """Speaking span from the voice around the first and the last lexical word.

    Whisper's word edges drift by a few hundred milliseconds (issue 8), which on a short
    clip moves the pace by as much. The span starts where the stretch of voice that holds
    the first word's start begins, and ends where the stretch that holds the last word's
    end ends; other words in that stretch (a filled pause before the first word, a laugh
    after the last) bound it. A word edge on no voice stays as it is.

    Args:
        lexical: lexical words, time order.
        words: all words (fillers too), time order.
        voice: sorted ``(start_s, end_s)`` stretches of voice, seconds (see
            :func:`coach.analysis.pauses.speech_spans`).

    Returns:
        (start_s, end_s); :func:`speaking_span` of ``lexical`` where voice says nothing.
    """
    start, end = speaking_span(lexical)
    if not lexical:
        return start, end
    keep = set(lexical)
    others = [w for w in words if w not in keep]
    for a, b in voice:
        if a - 1e-9 <= start < b:
            start = max([a] + [w.end_s for w in others if a <= w.end_s <= start + 1e-9])
        if a < end <= b + 1e-9:
            end = min([b] + [w.start_s for w in others if end - 1e-9 <= w.start_s <= b])
    return round(start, 3), round(end, 3)


def pace(
    words: list[Word],
    *,
    pause_total_s: float = 0.0,
    span: tuple[float, float] | None = None,
    options: PaceOptions = PaceOptions(),
) -> PaceStats:
    """Pace of lexical words.

    Args:
        words: lexical words only (fillers and fragments removed), in time order.
        pause_total_s: total silent pause time inside the speaking span, in seconds.
        span: the speaking span (start_s, end_s), e.g. from :func:`voiced_span`; the first
            word's start to the last word's end if None.
        options: band and timeline windows.

    Returns:
        PaceStats; all zero for fewer than two words.
    """
    stats = PaceStats(band_wpm=options.band_wpm)
    if len(words) < 2:
        return stats
    start, end = span or speaking_span(words)
    span = end - start
    if span <= 0:
        return stats
    n = len(words)
    stats.speaking_s = round(span, 3)
    stats.wpm = round(n / span * 60, 1)
    talking = max(span - pause_total_s, 1e-6)
    stats.articulation_wpm = round(n / talking * 60, 1)
    lo, hi = options.band_wpm
    mids = [(w.start_s + w.end_s) / 2 for w in words]
    t = start
    while True:
        w_end = min(t + options.window_s, end)
        length = w_end - t
        count = sum(1 for m in mids if t <= m < w_end or (w_end == end and m == end))
        wpm = count / length * 60 if length > 0 else 0.0
        flag = None
        if count >= options.min_window_words and length >= options.window_s / 2:
            flag = "fast" if wpm > hi else "slow" if wpm < lo else None
        stats.timeline.append(PacePoint(round(t, 2), round(w_end, 2), round(wpm, 1), count, flag))
        if w_end >= end:
            break
        t += options.hop_s
    stats.stretches = _stretches(stats.timeline)
    return stats


def _stretches(points: list[PacePoint]) -> list[PaceStretch]:
    out: list[PaceStretch] = []
    run: list[PacePoint] = []
    for p in points + [PacePoint(0, 0, 0, 0, None)]:
        if run and p.flag != run[-1].flag:
            mean = sum(q.wpm for q in run) / len(run)
            out.append(
                PaceStretch(run[0].start_s, run[-1].end_s, run[0].flag or "", round(mean, 1))
            )
            run = []
        if p.flag:
            run.append(p)
    return out
