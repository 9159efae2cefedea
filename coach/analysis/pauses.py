"""Silent pauses: gaps in the voice between the first word and the last."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from coach.errors import OptionsError
from coach.transcript import Word
from coach.vad import true_runs


@dataclass(frozen=True)
class PauseOptions:
    """Pause thresholds."""

    min_pause_s: float = 0.25
    """A silent gap of at least this long is a pause (Goldman-Eisler 1968, "Psycholinguistics:
    experiments in spontaneous speech", used the 0.25 s floor that most pause studies follow)."""
    long_pause_s: float = 1.5
    """A pause at least this long is a long pause worth flagging."""
    quiet_db: float = 35.0
    """Pause edges are pulled out over 10 ms frames more than this many dB below loud
    speech (95th percentile): webrtcvad keeps calling speech for about 0.1 s after it
    stops, which would shorten every pause."""

    def __post_init__(self) -> None:
        if not 0 < self.min_pause_s <= self.long_pause_s:
            raise OptionsError(
                "pause thresholds need 0 < min_pause_s <= long_pause_s (seconds), got "
                f"{self.min_pause_s} and {self.long_pause_s}"
            )


@dataclass(frozen=True)
class Pause:
    """One silent pause."""

    start_s: float
    """Start in seconds."""
    end_s: float
    """End in seconds."""
    position: str
    """"sentence" (after a sentence end), "clause" (after a comma or similar) or
    "within_clause" (mid-phrase: a hesitation)."""
    long: bool
    """At least the long-pause threshold."""

    @property
    def duration_s(self) -> float:
        """Length in seconds."""
        return round(self.end_s - self.start_s, 3)


@dataclass
class PauseStats:
    """Pauses of a clip."""

    count: int = 0
    """Number of pauses."""
    long_count: int = 0
    """Number of long pauses."""
    total_s: float = 0.0
    """Total pause time in seconds."""
    mean_s: float = 0.0
    """Mean pause length in seconds."""
    threshold_s: float = 0.25
    """Minimum pause length used, seconds."""
    long_threshold_s: float = 1.5
    """Long-pause threshold used, seconds."""
    at_sentence: int = 0
    """Pauses after a sentence end."""
    at_clause: int = 0
    """Pauses after a clause boundary (comma, colon, semicolon)."""
    within_clause: int = 0
    """Pauses inside a clause: hesitations."""
    items: list[Pause] = field(default_factory=list)
    """Every pause in time order."""

    def to_dict(self) -> dict:
        d = asdict(self)
        for it, p in zip(d["items"], self.items, strict=True):
            it["duration_s"] = p.duration_s
        return d


def silent_gaps(
    voiced: np.ndarray, *, frame_s: float, start_s: float, end_s: float, min_s: float
) -> list[tuple[float, float]]:
    """Runs of unvoiced frames of at least ``min_s`` inside ``[start_s, end_s]``.

    Args:
        voiced: bool per frame (True = voice), frame ``i`` starting at ``i * frame_s``.
        frame_s: frame length in seconds.
        start_s, end_s: the window to look in, seconds.
        min_s: shortest gap to return, seconds.
    """
    i0 = max(0, int(np.ceil(start_s / frame_s)))
    i1 = min(voiced.size, int(end_s / frame_s))
    if i1 <= i0:
        return []
    gaps = []
    for a, b in true_runs(~voiced[i0:i1].astype(bool)):
        ga, gb = (i0 + a) * frame_s, (i0 + b) * frame_s
        if gb - ga >= min_s - 1e-9:
            gaps.append((round(float(ga), 3), round(float(gb), 3)))
    return gaps


def quiet_below_db(
    voiced: np.ndarray, rms_db: np.ndarray | None, *, frame_s: float, quiet_db: float
) -> float | None:
    """Loudness (dB) under which a 10 ms frame is quiet: ``quiet_db`` below loud speech (the
    95th percentile over voiced frames); None without loudness or voice."""
    if rms_db is None or not rms_db.size:
        return None
    per = max(1, int(round(frame_s / 0.01)))
    loud = rms_db[: voiced.size * per][np.repeat(voiced, per)[: rms_db.size]]
    return float(np.percentile(loud, 95)) - quiet_db if loud.size else None


def speech_spans(
    voiced: np.ndarray,
    *,
    frame_s: float,
    rms_db: np.ndarray | None = None,
    options: PauseOptions = PauseOptions(),
) -> list[tuple[float, float]]:
    """Stretches of voice in seconds: runs of voiced frames, their edges pulled in over
    quiet 10 ms frames when loudness is given (webrtcvad hangs on for about 0.1 s after
    speech stops; see ``PauseOptions.quiet_db``).

    Args:
        voiced: bool voice activity per frame.
        frame_s: frame length of ``voiced`` in seconds.
        rms_db: loudness per 10 ms frame in dB (optional).
        options: ``quiet_db`` is used.

    Returns:
        Sorted, non-overlapping ``(start_s, end_s)`` spans; a run that is quiet throughout
        is left out.
    """
    quiet = quiet_below_db(voiced, rms_db, frame_s=frame_s, quiet_db=options.quiet_db)
    spans = []
    for a, b in true_runs(voiced):
        ta, tb = a * frame_s, b * frame_s
        if quiet is not None:
            i, j = int(round(ta / 0.01)), min(rms_db.size, int(round(tb / 0.01)))  # type: ignore[union-attr]
            loud = np.flatnonzero(rms_db[i:j] >= quiet)  # type: ignore[index]
            if not loud.size:
                continue
            ta, tb = (i + loud[0]) * 0.01, (i + loud[-1] + 1) * 0.01
        spans.append((round(float(ta), 3), round(float(tb), 3)))
    return spans


def _widen(
    gap: tuple[float, float], rms_db: np.ndarray, *, quiet_below_db: float, lo_s: float, hi_s: float
) -> tuple[float, float]:
    """Move a gap's edges outward over quiet 10 ms frames, staying within [lo_s, hi_s]."""
    a, b = int(round(gap[0] / 0.01)), int(round(gap[1] / 0.01))
    lo, hi = int(np.ceil(lo_s / 0.01)), min(rms_db.size, int(hi_s / 0.01))
    while a - 1 >= lo and a - 1 < rms_db.size and rms_db[a - 1] < quiet_below_db:
        a -= 1
    while b < hi and rms_db[b] < quiet_below_db:
        b += 1
    return round(a * 0.01, 3), round(max(b, a) * 0.01, 3)


def _position(words: list[Word], t: float) -> str:
    before = None
    for w in words:
        if w.start_s < t:
            before = w
        else:
            break
    if before is None:
        return "sentence"
    if before.ends_sentence:
        return "sentence"
    if before.text.rstrip()[-1:] in ",;:—–":
        return "clause"
    return "within_clause"


def pauses(
    words: list[Word],
    voiced: np.ndarray,
    *,
    frame_s: float,
    rms_db: np.ndarray | None = None,
    options: PauseOptions = PauseOptions(),
) -> PauseStats:
    """Silent pauses between the first and the last word.

    A pause is a run of frames with no voice (webrtcvad) of at least ``min_pause_s``;
    the recogniser's word times are only used for the span and for punctuation, because
    Whisper often stretches a word over the silence that follows it.

    Args:
        words: all recognised words (fillers too: a filled pause is not silent), time order.
        voiced: bool voice activity per frame.
        frame_s: frame length of ``voiced`` in seconds.
        rms_db: loudness per 10 ms frame in dB (optional): pause edges are widened over
            quiet frames.
        options: thresholds.
    """
    stats = PauseStats(threshold_s=options.min_pause_s, long_threshold_s=options.long_pause_s)
    if len(words) < 2:
        return stats
    start, end = words[0].start_s, max(w.end_s for w in words)
    quiet = quiet_below_db(voiced, rms_db, frame_s=frame_s, quiet_db=options.quiet_db)
    # find gaps a little shorter than the floor too: widening may bring them up to it
    slack = 2 * frame_s if quiet is not None else 0.0
    for gap in silent_gaps(
        voiced, frame_s=frame_s, start_s=start, end_s=end, min_s=options.min_pause_s - slack
    ):
        a, b = gap
        if quiet is not None:
            a, b = _widen(gap, rms_db, quiet_below_db=quiet, lo_s=start, hi_s=end)  # type: ignore[arg-type]
        if b - a < options.min_pause_s - 1e-9:
            continue
        pos = _position(words, (a + b) / 2)
        stats.items.append(Pause(a, b, pos, bool(b - a >= options.long_pause_s - 1e-9)))
    stats.count = len(stats.items)
    stats.long_count = int(sum(p.long for p in stats.items))
    stats.total_s = round(float(sum(p.duration_s for p in stats.items)), 3)
    stats.mean_s = round(stats.total_s / stats.count, 3) if stats.count else 0.0
    stats.at_sentence = sum(p.position == "sentence" for p in stats.items)
    stats.at_clause = sum(p.position == "clause" for p in stats.items)
    stats.within_clause = sum(p.position == "within_clause" for p in stats.items)
    return stats
