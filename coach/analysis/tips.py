"""Tips: a short ranked list of what to work on, each tied to a figure and a time."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from coach.analysis.disfluency import HedgeStats, RepetitionStats
from coach.analysis.fillers import FillerStats
from coach.analysis.pace import PaceStats
from coach.analysis.pauses import PauseStats
from coach.analysis.prosody import EnergyStats, PitchStats
from coach.targets import FILLERS_PER_MIN


@dataclass(frozen=True)
class TipOptions:
    """When a figure earns a tip. coach's own rules of thumb unless a source is named."""

    fillers_per_min: float = FILLERS_PER_MIN
    """Fillers per minute above which fillers get a tip (:data:`coach.targets.FILLERS_PER_MIN`:
    about one every 20 s, where listeners start to notice them; a heuristic)."""
    hedges_per_min: float = 4.0
    """Hedges per minute above which hedging gets a tip (heuristic)."""
    repetitions_per_min: float = 2.0
    """Repetitions per minute above which they get a tip (heuristic)."""
    within_clause_pauses: int = 3
    """Long pauses inside clauses (hesitations) from which a tip is given."""
    trail_off_share: float = 0.3
    """Share of sentences trailing off from which a tip is given."""
    max_tips: int = 5
    """How many tips to keep."""


@dataclass(frozen=True)
class Tip:
    """One thing to work on."""

    area: str
    """pace, fillers, pauses, pitch, volume, repetitions or hedges."""
    message: str
    """What to do, with the measured figure."""
    metric: str
    """Name of the figure behind it."""
    value: float
    """The measured figure."""
    target: str
    """The target, in words ("100-165 wpm")."""
    at_s: float | None
    """A time in the clip to listen to, seconds (None if it is about the whole clip)."""
    severity: float
    """How far past the target, for ranking (1 = just past)."""

    def to_dict(self) -> dict:
        return asdict(self)


def _mmss(t: float | None) -> str:
    if t is None:
        return ""
    return f"{int(t // 60)}:{int(t % 60):02d}"


def tips(
    *,
    pace: PaceStats,
    pauses: PauseStats,
    fillers: FillerStats,
    pitch: PitchStats,
    energy: EnergyStats,
    repetitions: RepetitionStats,
    hedges: HedgeStats,
    options: TipOptions = TipOptions(),
) -> list[Tip]:
    """Rank what to work on, most severe first; each tip names its figure and a time."""
    out: list[Tip] = []
    lo, hi = pace.band_wpm
    band = f"{lo:.0f}-{hi:.0f} wpm"
    if pace.wpm and pace.speaking_s >= 10:
        if pace.wpm > hi:
            at = pace.stretches[0].start_s if pace.stretches else None
            out.append(Tip("pace", f"Slow down: {pace.wpm:.0f} words per minute overall "
                           f"(aim for {band}); take a breath at each full stop.",
                           "wpm", pace.wpm, band, at, pace.wpm / hi))  # fmt: skip
        elif pace.wpm < lo:
            at = pace.stretches[0].start_s if pace.stretches else None
            out.append(Tip("pace", f"Pick up the pace: {pace.wpm:.0f} words per minute overall "
                           f"(aim for {band}); shorten the gaps between phrases.",
                           "wpm", pace.wpm, band, at, lo / max(pace.wpm, 1)))  # fmt: skip
    for s in pace.stretches:
        if lo <= pace.wpm <= hi:
            word = "rushed" if s.flag == "fast" else "dragged"
            sev = (s.wpm / hi) if s.flag == "fast" else lo / max(s.wpm, 1)
            out.append(Tip("pace", f"Pace {word} to {s.wpm:.0f} wpm from {_mmss(s.start_s)} "
                           f"to {_mmss(s.end_s)} (aim for {band}).",
                           "stretch_wpm", s.wpm, band, s.start_s, sev))  # fmt: skip
            break
    if fillers.count and fillers.per_minute > options.fillers_per_min:
        top = max({**fillers.filled_pauses, **fillers.discourse}.items(), key=lambda kv: kv[1])
        first = fillers.items[0].start_s
        out.append(Tip("fillers", f"Cut the fillers: {fillers.per_minute:.1f} per minute "
                       f"({fillers.count} in all, most often \"{top[0]}\" x{top[1]}); "
                       "pause silently instead.", "fillers_per_minute", fillers.per_minute,
                       f"under {options.fillers_per_min:.0f} per minute", first,
                       fillers.per_minute / options.fillers_per_min))  # fmt: skip
    hes = [p for p in pauses.items if p.position == "within_clause" and p.long]
    if len(hes) >= options.within_clause_pauses:
        out.append(Tip("pauses", f"{len(hes)} long pauses fell in the middle of a phrase "
                       f"(first at {_mmss(hes[0].start_s)}); pause at the ends of sentences, "
                       "where a pause helps the listener.", "long_pauses_within_clause",
                       len(hes), "pauses at sentence ends", hes[0].start_s,
                       len(hes) / options.within_clause_pauses))  # fmt: skip
    if pitch.monotone:
        out.append(Tip("pitch", f"Vary your pitch: it spread only {pitch.spread_st:.1f} "
                       f"semitones (lively speech spreads {pitch.monotone_threshold_st:.0f}+); "
                       "stress the key word of each sentence.", "pitch_spread_st",
                       pitch.spread_st, f"at least {pitch.monotone_threshold_st:.0f} semitones",
                       None, pitch.monotone_threshold_st / max(pitch.spread_st, 0.5)))  # fmt: skip
    if energy.sentences >= 3:
        share = len(energy.trail_offs) / energy.sentences
        if share >= options.trail_off_share:
            t0 = energy.trail_offs[0]
            out.append(Tip("volume", f"Keep your voice up to the end of sentences: "
                           f"{len(energy.trail_offs)} of {energy.sentences} trailed off "
                           f"(first at {_mmss(t0.start_s)}, {t0.drop_db:.0f} dB quieter).",
                           "trail_off_share", round(share, 2),
                           f"under {options.trail_off_share:.0%} of sentences", t0.start_s,
                           share / options.trail_off_share))  # fmt: skip
    if repetitions.count >= 2 and repetitions.per_minute > options.repetitions_per_min:
        r = repetitions.items[0]
        out.append(Tip("repetitions", f"{repetitions.count} repeated words or restarts "
                       f"({repetitions.per_minute:.1f} per minute, first \"{r.text}\" at "
                       f"{_mmss(r.start_s)}); finish the thought before you speak.",
                       "repetitions_per_minute", repetitions.per_minute,
                       f"under {options.repetitions_per_min:.0f} per minute", r.start_s,
                       repetitions.per_minute / options.repetitions_per_min))  # fmt: skip
    if hedges.count >= 2 and hedges.per_minute > options.hedges_per_min:
        top = next(iter(hedges.by_phrase.items()))
        out.append(Tip("hedges", f"Sound surer: {hedges.count} hedges ({hedges.per_minute:.1f} "
                       f"per minute, most often \"{top[0]}\" x{top[1]}); state the point plainly.",
                       "hedges_per_minute", hedges.per_minute,
                       f"under {options.hedges_per_min:.0f} per minute",
                       hedges.items[0].start_s,
                       hedges.per_minute / options.hedges_per_min))  # fmt: skip
    out.sort(key=lambda t: -t.severity)
    return out[: options.max_tips]
