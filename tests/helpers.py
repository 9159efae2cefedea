"""Helpers several test modules share (not a test module: pytest collects nothing here).

Test modules import from here or from conftest, never from each other. Nothing here loads
a model: a fake Piper voice, and clip reports built by hand with every figure set.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import numpy as np

from coach.analysis.disfluency import HedgeItem, HedgeStats, RepetitionItem, RepetitionStats
from coach.analysis.fillers import FillerItem, FillerStats
from coach.analysis.pace import PacePoint, PaceStats, PaceStretch
from coach.analysis.pauses import Pause, PauseStats
from coach.analysis.prosody import EnergyStats, PitchStats, Tracks, TrailOff
from coach.analysis.tips import Tip
from coach.report import ClipReport, ReportWord

# --- a fake voice -----------------------------------------------------------------------------


class FakeVoice:
    """Duck-typed PiperVoice: 10 samples per character at 1 kHz, records what it speaks."""

    def __init__(self, log: list[str] | None = None) -> None:
        self.config = SimpleNamespace(sample_rate=1000)
        self.spoken: list[str] = []
        self.log = log if log is not None else []

    def synthesize(self, text: str, syn_config: object = None) -> Iterator[SimpleNamespace]:
        self.spoken.append(text)
        self.log.append(f"say:{text}")
        yield SimpleNamespace(
            sample_rate=1000, audio_float_array=np.full(10 * len(text), 0.5, np.float32)
        )


# --- hand-built clip reports ------------------------------------------------------------------

# (text, start s, end s, filler)
WORDS = [
    ("So,", 0.50, 0.80, True),
    ("today", 0.85, 1.20, False),
    ("I", 1.25, 1.35, False),
    ("want", 1.40, 1.60, False),
    ("to", 1.62, 1.70, False),
    ("talk", 1.75, 2.00, False),
    ("about", 2.05, 2.30, False),
    ("um,", 2.40, 2.90, True),
    ("rivers.", 3.00, 3.50, False),
    ("Rivers", 5.20, 5.60, False),
    ("are", 5.65, 5.80, False),
    ("uh", 5.90, 6.30, True),
    ("the", 6.40, 6.50, False),
    ("the", 6.55, 6.65, False),
    ("roads", 6.70, 7.10, False),
    ("of,", 7.15, 7.30, False),
    ("you", 7.40, 7.55, True),
    ("know,", 7.55, 7.80, True),
    ("nature.", 7.85, 8.40, False),
    ("I", 8.60, 8.70, False),
    ("think", 8.75, 9.00, False),
    ("um", 9.10, 9.50, True),
    ("they", 9.60, 9.80, False),
    ("matter.", 9.85, 10.40, False),
]


def synthetic_tracks(duration_s: float = 11.0, words=WORDS) -> Tracks:
    """Per-frame tracks of a clip that has voice exactly where ``words`` are."""
    n = int(round(duration_s / 0.01))
    t = np.arange(n) * 0.01
    inside = np.zeros(n, bool)
    for _text, a, b, _f in words:
        inside |= (t >= a) & (t < b)
    f0 = np.where(inside, 120 + 20 * np.sin(2 * np.pi * 0.3 * t), np.nan).astype(np.float32)
    rms_db = np.where(inside, -20.0, -60.0).astype(np.float32)
    amp = np.where(inside, 0.5, 0.01).astype(np.float32)
    envelope = np.stack([-amp, amp], axis=1)
    voiced = inside[::3].copy()
    return Tracks(f0, rms_db, voiced, 0.03, envelope)


def make_report(
    file: str = "talks/rivers.wav", *, transcript_words=WORDS, tracks: bool = True
) -> ClipReport:
    """A scored clip with every figure set, built by hand."""
    words = [ReportWord(w, a, b, f) for w, a, b, f in transcript_words]
    fillers = FillerStats(
        count=4,
        per_minute=24.0,
        filled_pauses={"um": 2, "uh": 1},
        discourse={"you know": 1},
        items=[
            FillerItem("um", 2.40, 2.90, "filled_pause", "transcript"),
            FillerItem("uh", 5.90, 6.30, "filled_pause", "transcript"),
            FillerItem("you know", 7.40, 7.80, "discourse", "transcript"),
            FillerItem("um", 9.10, 9.50, "filled_pause", "transcript"),
        ],
    )
    pauses = PauseStats(
        count=2, long_count=1, total_s=2.0, mean_s=1.0, at_sentence=1, within_clause=1,
        items=[Pause(3.50, 5.20, "sentence", True), Pause(8.40, 8.70, "within_clause", False)],
    )  # fmt: skip
    pace = PaceStats(
        wpm=97.2,
        articulation_wpm=121.5,
        speaking_s=9.9,
        timeline=[
            PacePoint(0.5, 5.5, 96.0, 8, "slow"),
            PacePoint(5.5, 10.4, 110.2, 9, None),
        ],
        stretches=[PaceStretch(0.5, 5.5, "slow", 96.0)],
    )
    return ClipReport(
        file=file,
        duration_s=11.0,
        transcript=" ".join(w.text for w in words),
        word_count=18,
        words=words,
        pace=pace,
        pauses=pauses,
        fillers=fillers,
        pitch=PitchStats(
            median_hz=121.0, spread_st=1.4, range_st=4.1, monotone=True, voiced_s=6.1
        ),  # fmt: skip
        energy=EnergyStats(
            mean_db=-20.0,
            spread_db=3.2,
            range_db=7.5,
            sentences=3,
            trail_offs=[TrailOff(9.85, 10.4, 7.0)],
        ),  # fmt: skip
        repetitions=RepetitionStats(
            count=1, per_minute=6.0, items=[RepetitionItem("the", 6.40, 6.65, "repetition")]
        ),
        hedges=HedgeStats(
            count=1,
            per_minute=6.0,
            by_phrase={"i think": 1},
            items=[HedgeItem("i think", 8.60, 9.00)],
        ),  # fmt: skip
        tips=[
            Tip(
                "fillers",
                "Cut the fillers: 24.0 per minute.",
                "fillers_per_minute",
                24.0,
                "under 3 per minute",
                2.4,
                8.0,
            ),
            Tip(
                "pitch",
                "Vary your pitch: it spread only 1.4 semitones.",
                "pitch_spread_st",
                1.4,
                "at least 2 semitones",
                None,
                1.4,
            ),
        ],  # fmt: skip
        asr_model="small.en",
        timings_s={"asr_s": np.float64(1.25)},
        tracks=synthetic_tracks() if tracks else None,
    )


def error_report() -> ClipReport:
    return ClipReport(file="broken.mp3", error="not audio: the file could not be decoded")
