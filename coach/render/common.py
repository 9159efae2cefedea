"""Pieces every rendering shares: time and count formats, the headline figures, the summary.

Each output format (text, Markdown, HTML) lays out the same rows built here, so a figure
reads the same wherever it is shown.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from coach.analysis.fillers import FillerStats
from coach.report import ClipReport, ReportWord, headline


def clock(t_s: float | None) -> str:
    """A time as m:ss, or h:mm:ss from an hour on ("" for None).

    Args:
        t_s: time in seconds from the start of the clip.
    """
    if t_s is None or not math.isfinite(t_s):
        return ""
    total = int(max(t_s, 0.0))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def duration(t_s: float) -> str:
    """A clip length for headers: "2:03 (123.4 s)", or "12.5 s" under a minute.

    Args:
        t_s: length in seconds.
    """
    return f"{clock(t_s)} ({t_s:.1f} s)" if t_s >= 60 else f"{t_s:.1f} s"


def counts(by_form: Mapping[str, int]) -> str:
    """Counts by form as "um x2, uh x1" (most frequent first, "" when empty)."""
    ranked = sorted(by_form.items(), key=lambda kv: -kv[1])
    return ", ".join(f"{form} x{n}" for form, n in ranked)


def filler_breakdown(fillers: FillerStats) -> str:
    """Fillers by form, filled pauses and discourse fillers together: "um x2, you know x1"."""
    return counts({**fillers.filled_pauses, **fillers.discourse})


def error_line(report: ClipReport) -> str:
    """The one line shown for a clip that could not be scored: "file: error".

    Errors that already start with the file name (as :class:`coach.errors.AudioError`
    messages do) are shown as they are, not as "file: file: error".
    """
    error = str(report.error)
    return error if error.startswith(f"{report.file}:") else f"{report.file}: {error}"


@dataclass(frozen=True)
class Figure:
    """One row of the headline figures of a clip."""

    label: str
    """What is measured ("Pace", "Fillers"...)."""
    value: str
    """The main figure with its unit ("142 wpm")."""
    detail: str
    """The breakdown and the target it is judged against."""
    area: str
    """Tip area of the figure (pace, pauses, fillers, pitch, volume, repetitions, hedges)."""
    flagged: bool
    """True if a tip is about this area: the figure needs work."""


def figures(report: ClipReport) -> list[Figure]:
    """The headline figures of a scored clip, one row per area, in report order."""
    r = report
    tip_areas = {t.area for t in r.tips}
    rows: list[tuple[str, str, str, str]] = []

    lo, hi = r.pace.band_wpm
    if r.pace.wpm:
        verdict = (
            "faster than the band"
            if r.pace.wpm > hi
            else "slower than the band"
            if r.pace.wpm < lo
            else "in the band"
        )
        detail = f"articulation {r.pace.articulation_wpm:.0f} wpm; {verdict} {lo:.0f}-{hi:.0f} wpm"
        if r.pace.stretches:
            spans = ", ".join(
                f"{s.flag} at {clock(s.start_s)}-{clock(s.end_s)}" for s in r.pace.stretches[:3]
            )
            more = f" (+{len(r.pace.stretches) - 3} more)" if len(r.pace.stretches) > 3 else ""
            detail += f"; {spans}{more}"
        rows.append(("Pace", f"{r.pace.wpm:.0f} wpm", detail, "pace"))
    else:
        rows.append(("Pace", "-", "too few words to measure", "pace"))

    p = r.pauses
    rows.append(
        (
            "Pauses",
            f"{p.count} ({p.long_count} long)",
            f"{p.total_s:.1f} s in all; {p.at_sentence} at sentence ends, {p.at_clause} at "
            f"clause breaks, {p.within_clause} within clauses; long = {p.long_threshold_s:g} s+",
            "pauses",
        )
    )

    f = r.fillers
    rows.append(
        (
            "Fillers",
            f"{f.count} ({f.per_minute:.1f}/min)",
            filler_breakdown(f) or "none",
            "fillers",
        )
    )

    pi = r.pitch
    if pi.voiced_s > 0:
        tone = (
            f"monotone (under {pi.monotone_threshold_st:g} st)"
            if pi.monotone
            else f"varied ({pi.monotone_threshold_st:g} st+ is lively)"
        )
        detail = f"{tone}; median {pi.median_hz:.0f} Hz, range {pi.range_st:.1f} st"
        rows.append(("Pitch", f"{pi.spread_st:.1f} st spread", detail, "pitch"))
    else:
        rows.append(("Pitch", "-", "not enough voiced speech to measure", "pitch"))

    e = r.energy
    if e.sentences or e.spread_db:
        detail = (
            f"{len(e.trail_offs)} of {e.sentences} sentences trailed off "
            f"({e.trail_off_threshold_db:g} dB+ quieter at the end); range {e.range_db:.1f} dB"
        )
        rows.append(("Volume", f"{e.spread_db:.1f} dB spread", detail, "volume"))
    else:
        rows.append(("Volume", "-", "not enough voiced speech to measure", "volume"))

    rep = r.repetitions
    restarts = sum(it.kind == "restart" for it in rep.items)
    rep_forms: dict[str, int] = {}
    for it in rep.items:
        rep_forms[it.text] = rep_forms.get(it.text, 0) + 1
    rep_detail = counts(rep_forms) or "none"
    if restarts:
        rep_detail += f"; {restarts} restart{'s' if restarts != 1 else ''}"
    rows.append(
        ("Repetitions", f"{rep.count} ({rep.per_minute:.1f}/min)", rep_detail, "repetitions")
    )

    h = r.hedges
    rows.append(
        ("Hedges", f"{h.count} ({h.per_minute:.1f}/min)", counts(h.by_phrase) or "none", "hedges")
    )
    return [Figure(lab, val, det, area, area in tip_areas) for lab, val, det, area in rows]


def tip_lines(report: ClipReport) -> list[tuple[str, str]]:
    """The tips as (message, time) pairs; time is m:ss or "" for a whole-clip tip."""
    return [(t.message, clock(t.at_s)) for t in report.tips]


SUMMARY_HEADERS: tuple[str, ...] = (
    "File", "Length", "Words", "Pace wpm", "Pauses (long)", "Fillers (/min)", "Pitch st",
    "Volume dB", "Trail-offs", "Repeats", "Hedges",
)  # fmt: skip
"""Column titles of the batch summary table (one row per clip)."""


def summary_row(report: ClipReport) -> list[str]:
    """One clip's cells of the batch summary, formatted from :func:`coach.report.headline`.

    A clip with an error gets "-" in every figure column.
    """
    h = headline(report)
    if report.error is not None:
        return [str(h["file"]), clock(report.duration_s) if report.duration_s else "-"] + ["-"] * (
            len(SUMMARY_HEADERS) - 2
        )
    mono = " mono" if h["monotone"] else ""
    return [
        str(h["file"]),
        clock(h["duration_s"]),
        str(h["word_count"]),
        f"{h['wpm']:.0f}",
        f"{h['pauses']} ({h['long_pauses']})",
        f"{h['fillers']} ({h['fillers_per_min']:.1f})",
        f"{h['pitch_spread_st']:.1f}{mono}",
        f"{h['volume_spread_db']:.1f}",
        str(h["trail_offs"]),
        str(h["repetitions"]),
        str(h["hedges"]),
    ]


def paragraphs(
    words: Sequence[ReportWord], *, break_s: float = 1.5, max_words: int = 80
) -> list[list[ReportWord]]:
    """Split the transcript into paragraphs for reading.

    A paragraph ends at a silence of ``break_s`` seconds or more between words, or at the
    first sentence end after ``max_words`` words.

    Args:
        words: the report's words in time order.
        break_s: gap between words that starts a new paragraph, seconds.
        max_words: paragraph length after which the next sentence end breaks it, words.
    """
    out: list[list[ReportWord]] = []
    cur: list[ReportWord] = []
    for w in words:
        if cur and (
            w.start_s - cur[-1].end_s >= break_s
            or (len(cur) >= max_words and cur[-1].text.rstrip()[-1:] in ".?!")
        ):
            out.append(cur)
            cur = []
        cur.append(w)
    if cur:
        out.append(cur)
    return out


@dataclass(frozen=True)
class Chunk:
    """A word of the transcript as shown, or a run of filler words shown as one ("you know")."""

    lead: str
    """Punctuation before the text."""
    text: str
    """The word(s) without outer punctuation."""
    trail: str
    """Punctuation after the text."""
    filler: bool
    """A filler: to be highlighted."""
    start_s: float
    """Start of the first word, seconds."""
    words: int
    """How many report words it joins."""


def chunks(words: Sequence[ReportWord]) -> list[Chunk]:
    """The words as shown: consecutive filler words join into one chunk ("you know") unless
    punctuation separates them ("um, uh")."""
    out: list[Chunk] = []
    for w in words:
        lead, core, trail = split_punct(w.text)
        prev = out[-1] if out else None
        if w.filler and prev is not None and prev.filler and not prev.trail and not lead:
            out[-1] = Chunk(
                prev.lead, f"{prev.text} {core}", trail, True, prev.start_s, prev.words + 1
            )
        else:
            out.append(Chunk(lead, core, trail, w.filler, w.start_s, 1))
    return out


def split_punct(text: str) -> tuple[str, str, str]:
    """Split a word into (leading punctuation, core, trailing punctuation).

    "(um," -> ("(", "um", ","); a word of punctuation only is all core.
    """
    text = text.strip()
    i, j = 0, len(text)
    while i < j and not text[i].isalnum():
        i += 1
    while j > i and not text[j - 1].isalnum():
        j -= 1
    if i == j:
        return "", text, ""
    return text[:i], text[i:j], text[j:]


def jsonable(obj: Any) -> Any:
    """A copy of ``obj`` that :func:`json.dumps` accepts with ``allow_nan=False``.

    Numpy scalars become Python numbers, arrays and tuples become lists, NaN and infinities
    become None, and mapping keys become strings.
    """
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple | set | frozenset):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [jsonable(v) for v in obj.tolist()]
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj
