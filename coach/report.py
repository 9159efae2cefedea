"""The clip report: one structure that every output format renders."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from coach.analysis.disfluency import HedgeStats, RepetitionStats
from coach.analysis.fillers import FillerStats
from coach.analysis.pace import PaceStats
from coach.analysis.pauses import PauseStats
from coach.analysis.prosody import EnergyStats, PitchStats, Tracks
from coach.analysis.tips import Tip

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class ReportWord:
    """A word of the transcript as reported."""

    text: str
    """As recognised, punctuation included."""
    start_s: float
    """Start, seconds."""
    end_s: float
    """End, seconds."""
    filler: bool
    """Part of a filler (filled pause or discourse filler)."""
    probability: float = 1.0
    """The recogniser's confidence in the word, 0-1 (Whisper's word probability)."""


@dataclass
class ClipReport:
    """Everything measured on one clip."""

    file: str
    """The input path as given."""
    duration_s: float = 0.0
    """Decoded audio length, seconds."""
    transcript: str = ""
    """The words joined, as recognised."""
    word_count: int = 0
    """Lexical words: fillers and cut-off fragments excluded."""
    words: list[ReportWord] = field(default_factory=list)
    """Every recognised word with its time."""
    pace: PaceStats = field(default_factory=PaceStats)
    """Words per minute, articulation rate and the pace timeline."""
    pauses: PauseStats = field(default_factory=PauseStats)
    """Silent pauses."""
    fillers: FillerStats = field(default_factory=FillerStats)
    """Filled pauses and discourse fillers."""
    pitch: PitchStats = field(default_factory=PitchStats)
    """Pitch variety."""
    energy: EnergyStats = field(default_factory=EnergyStats)
    """Volume variety and trailing off."""
    repetitions: RepetitionStats = field(default_factory=RepetitionStats)
    """Repeated words and restarts."""
    hedges: HedgeStats = field(default_factory=HedgeStats)
    """Hedges and weak words."""
    tips: list[Tip] = field(default_factory=list)
    """What to work on, most important first."""
    error: str | None = None
    """None, or the one-line reason this clip could not be scored."""
    asr_model: str = ""
    """Recogniser used."""
    timings_s: dict[str, float] = field(default_factory=dict)
    """Compute time per stage in seconds (decode+vad, asr, analysis)."""
    tracks: Tracks | None = None
    """Per-frame tracks for charts; not part of the JSON."""

    @property
    def ok(self) -> bool:
        """True if the clip was scored."""
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of this clip (schema in README.md)."""
        return {
            "schema": SCHEMA_VERSION,
            "file": self.file,
            "duration_s": round(self.duration_s, 3),
            "transcript": self.transcript,
            "word_count": self.word_count,
            "words": [w.__dict__ for w in self.words],
            "pace": self.pace.to_dict(),
            "pauses": self.pauses.to_dict(),
            "fillers": self.fillers.to_dict(),
            "pitch": self.pitch.to_dict(),
            "energy": self.energy.to_dict(),
            "repetitions": self.repetitions.to_dict(),
            "hedges": self.hedges.to_dict(),
            "tips": [t.to_dict() for t in self.tips],
            "error": self.error,
            "asr_model": self.asr_model,
            "timings_s": self.timings_s,
        }


HEADLINE_COLUMNS = [
    "file", "duration_s", "word_count", "wpm", "articulation_wpm", "pauses", "long_pauses",
    "pause_total_s", "fillers", "fillers_per_min", "filled_pauses", "discourse_fillers",
    "pitch_spread_st", "monotone", "volume_spread_db", "trail_offs", "repetitions", "hedges",
    "top_tip", "error",
]  # fmt: skip
"""Columns of the CSV table, one row per clip."""


def headline(report: ClipReport) -> dict[str, Any]:
    """The headline figures of a clip as one flat row (CSV, tables, the batch summary)."""
    r = report
    return {
        "file": r.file,
        "duration_s": round(r.duration_s, 2),
        "word_count": r.word_count,
        "wpm": r.pace.wpm,
        "articulation_wpm": r.pace.articulation_wpm,
        "pauses": r.pauses.count,
        "long_pauses": r.pauses.long_count,
        "pause_total_s": r.pauses.total_s,
        "fillers": r.fillers.count,
        "fillers_per_min": r.fillers.per_minute,
        "filled_pauses": sum(r.fillers.filled_pauses.values()),
        "discourse_fillers": sum(r.fillers.discourse.values()),
        "pitch_spread_st": r.pitch.spread_st,
        "monotone": r.pitch.monotone,
        "volume_spread_db": r.energy.spread_db,
        "trail_offs": len(r.energy.trail_offs),
        "repetitions": r.repetitions.count,
        "hedges": r.hedges.count,
        "top_tip": r.tips[0].message if r.tips else "",
        "error": r.error or "",
    }
