"""Filled pauses found in the sound: voiced stretches that no word covers.

An "uh" or "um" is a steady vowel or nasal: voiced, with a flat pitch and an even
loudness, typically 0.2 to 1 s long (Shriberg 1994; O'Shaughnessy 1992, "Recognition of
hesitations in spontaneous speech", used flat F0 and stable spectrum the same way).
Laughter is voiced too but pulses in loudness and pitch; breath is unvoiced; so both fail
these tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from coach.analysis.fillers import FillerItem, filled_pause_form
from coach.analysis.prosody import HOP_S, Tracks
from coach.transcript import Word
from coach.vad import true_runs


@dataclass(frozen=True)
class AcousticOptions:
    """Thresholds of filled-pause recovery from the audio."""

    enabled: bool = True
    """Look for filled pauses in the audio at all."""
    min_s: float = 0.25
    """Shortest voiced stretch taken as a filled pause, seconds."""
    max_s: float = 1.5
    """Longest, seconds (a longer steady sound is singing or a held word)."""
    max_pitch_spread_st: float = 1.0
    """A filled pause holds its pitch: standard deviation within it below this, semitones."""
    max_level_spread_db: float = 4.0
    """...and its loudness over the middle three fifths: standard deviation below this, dB
    (laughter pulses)."""
    max_word_overlap: float = 0.3
    """Share of the stretch that recognised words may cover."""
    unplaced_word_s: float = 0.05
    """A recognised word shorter than this (s) is one Whisper could not place in time..."""
    unplaced_reach_s: float = 0.5
    """...and a voiced stretch this close (s) to it is taken to be that word, not a filler."""
    near_transcript_s: float = 0.4
    """A stretch this close (s) to a filled pause the recogniser wrote is that one."""
    word_edge_s: float = 0.05
    """A stretch whose voice starts inside a recognised word, or this close (s) after its
    end, is that word's trailing edge, not a filler: on unseen speech the release of a
    clip's last word came out as an "uh/um" (issue 8)."""
    clip_end_s: float = 0.15
    """A stretch ending this close (s) to the end of the recording is not taken: it is cut
    off, so neither its length nor its steadiness can be judged (issue 8: an "uh/um" at
    32.95-33.2 s of a 33.21 s clip)."""


def _covered(a: float, b: float, spans: list[tuple[float, float]]) -> float:
    total = 0.0
    for s, e in spans:
        total += max(0.0, min(b, e) - max(a, s))
    return total


def recover_filled_pauses(
    words: list[Word],
    filler_index: set[int],
    tracks: Tracks,
    *,
    options: AcousticOptions = AcousticOptions(),
) -> list[FillerItem]:
    """Filled pauses the transcript missed, found as steady voiced stretches between words.

    A stretch that continues a word's voice (its trailing edge), holds a whole word (the
    recogniser squeezed the word's time: on ../shared/eval a 0.1 s "Montreal" inside
    0.55 s of voice) or runs into the end of the recording is not taken.

    Args:
        words: all recognised words, time order.
        filler_index: indices of words that are fillers.
        tracks: per-frame pitch and loudness (pitch NaN where unvoiced).
        options: thresholds.

    Returns:
        New filled-pause items, not overlapping the transcript's own: text "uh/um" (the
        sound alone does not say which), source "audio".
    """
    if not options.enabled or tracks.f0_hz.size == 0:
        return []
    word_spans = [(w.start_s, w.end_s) for i, w in enumerate(words) if i not in filler_index]
    known = [
        (w.start_s, w.end_s)
        for i, w in enumerate(words)
        if i in filler_index and filled_pause_form(w.norm)
    ]
    unplaced = [
        (w.start_s, w.end_s)
        for w in words
        if w.duration_s < options.unplaced_word_s and not filled_pause_form(w.norm)
    ]
    reach = options.unplaced_reach_s
    end_s = tracks.f0_hz.size * HOP_S
    found: list[FillerItem] = []
    for i, j in true_runs(~np.isnan(tracks.f0_hz)):
        a, b = i * HOP_S, j * HOP_S
        dur = b - a
        if not options.min_s <= dur <= options.max_s or b > end_s - options.clip_end_s:
            continue
        # the voice of a word: its trailing edge, or a word squeezed in time inside it
        if any(s <= a <= e + options.word_edge_s or a <= s <= e <= b for s, e in word_spans):
            continue
        if _covered(a, b, word_spans) > options.max_word_overlap * dur:
            continue
        if any(
            s - options.near_transcript_s < b and a < e + options.near_transcript_s
            for s, e in known
        ):
            continue
        if any(s - reach < b and a < e + reach for s, e in unplaced):
            continue
        st = 12 * np.log2(tracks.f0_hz[i:j] / np.median(tracks.f0_hz[i:j]))
        if float(np.std(st)) > options.max_pitch_spread_st:
            continue
        # loudness steadiness of the sustained middle (onset and release ramps excluded)
        k = max(1, (j - i) // 5)
        if float(np.std(tracks.rms_db[i + k : j - k])) > options.max_level_spread_db:
            continue
        found.append(FillerItem("uh/um", round(a, 3), round(b, 3), "filled_pause", "audio"))
    return found
