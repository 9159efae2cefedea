"""Issue 8: filled pauses placed in the voice they belong to, the audio fillers that are not
there, and pace from voiced edges; synthetic word lists and voiced spans, no models."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import words

from coach.analysis import acoustic, fillers, pace, pauses
from coach.analysis.fillers import FillerItem, place_filled_pauses
from coach.analysis.prosody import HOP_S, Tracks


def _times(ws) -> list[tuple[str, float, float]]:
    return [(w.text, w.start_s, w.end_s) for w in ws]


def _voiced(spans: list[tuple[float, float]], seconds: float, frame_s: float = 0.01) -> np.ndarray:
    v = np.zeros(int(round(seconds / frame_s)), bool)
    for a, b in spans:
        v[int(round(a / frame_s)) : int(round(b / frame_s))] = True
    return v


def _on_silence(items: list[FillerItem], voice: list[tuple[float, float]]) -> list[FillerItem]:
    """Filled pauses with any part outside the voice."""
    return [
        it
        for it in items
        if it.kind == "filled_pause"
        and not any(a - 1e-9 <= it.start_s and it.end_s <= b + 1e-9 for a, b in voice)
    ]


# --- placement ------------------------------------------------------------------------------


def test_filler_written_late_over_silence_moves_to_its_voice_and_the_pause_stays() -> None:
    # "we, um ... ship": the "um" is said at 0.8-1.2 s; Whisper writes it at 1.3-1.7 s,
    # on the silence that follows it
    voice = [(0.0, 0.5), (0.8, 1.2), (2.5, 3.0)]
    ws = words(("we,", 0.0, 0.5), ("um", 1.3, 1.7), ("ship.", 2.5, 3.0))
    placed = place_filled_pauses(ws, voice)
    assert _times(placed) == [("we,", 0.0, 0.5), ("um", 0.8, 1.2), ("ship.", 2.5, 3.0)]
    items, _ = fillers.tag_fillers(placed)
    assert _on_silence(items, voice) == []
    # the silence after the "um" is reported as a pause, and no filler lies on a pause
    stats = pauses.pauses(placed, _voiced(voice, 3.0), frame_s=0.01)
    assert [(p.start_s, p.end_s) for p in stats.items] == [(0.5, 0.8), (1.2, 2.5)]
    for it in items:
        assert all(it.end_s <= p.start_s or it.start_s >= p.end_s for p in stats.items)


def test_filler_written_over_the_next_word_moves_back_to_its_own_voice() -> None:
    # said at 0.8-1.2 s, written 1.2 s late on top of "ship"
    voice = [(0.0, 0.5), (0.8, 1.2), (1.9, 2.6)]
    ws = words(("we", 0.0, 0.5), ("um", 2.0, 2.4), ("ship", 1.9, 2.6))
    placed = place_filled_pauses(ws, voice)
    assert _times(placed) == [("we", 0.0, 0.5), ("um", 0.8, 1.2), ("ship", 1.9, 2.6)]


def test_filler_stays_between_the_words_written_around_it() -> None:
    # free voice at 1.0-1.3 s lies after "b", although nearer the written time: "a um b"
    # puts the "um" between "a" and "b", so it goes to 0.3-0.6 s
    voice = [(0.0, 0.2), (0.3, 0.6), (0.7, 0.9), (1.0, 1.3)]
    ws = words(("a", 0.0, 0.2), ("um", 0.95, 1.25), ("b", 0.7, 0.9))
    placed = place_filled_pauses(ws, voice)
    assert ("um", 0.3, 0.6) in _times(placed)


def test_fillers_sharing_one_stretch_split_it_in_order() -> None:
    voice = [(0.0, 0.4), (0.6, 1.2), (2.0, 2.4)]
    ws = words(("so", 0.0, 0.4), ("uh", 1.5, 1.6), ("um", 1.6, 1.8), ("yes", 2.0, 2.4))
    placed = place_filled_pauses(ws, voice)
    assert _times(placed)[1:3] == [("uh", 0.6, 0.9), ("um", 0.9, 1.2)]


def test_same_time_repeat_moves_as_one() -> None:
    voice = [(0.0, 0.4), (0.6, 1.0), (2.0, 2.4)]
    ws = words(("so", 0.0, 0.4), ("uh", 1.4, 1.6), ("uh", 1.45, 1.6), ("yes", 2.0, 2.4))
    placed = place_filled_pauses(ws, voice)
    assert _times(placed)[1:3] == [("uh", 0.6, 1.0), ("uh", 0.6, 1.0)]
    items, _ = fillers.tag_fillers(placed)
    assert [(it.text, it.start_s) for it in items if it.kind == "filled_pause"] == [("uh", 0.6)]


def test_each_filler_takes_its_own_stretch_when_there_are_enough() -> None:
    voice = [(0.0, 0.4), (0.6, 0.9), (1.1, 1.4), (1.6, 1.9), (2.5, 2.9)]
    ws = words(("so", 0.0, 0.4), ("uh", 1.0, 1.2), ("uh", 1.3, 1.5), ("uh", 1.6, 1.8),
               ("yes", 2.5, 2.9))  # fmt: skip
    placed = place_filled_pauses(ws, voice)
    assert [(a, b) for t, a, b in _times(placed) if t == "uh"] == [
        (0.6, 0.9), (1.1, 1.4), (1.6, 1.9)
    ]  # fmt: skip


def test_filler_under_a_stretched_word_keeps_its_voiced_part() -> None:
    # "and" was stretched over the "uh" that follows it: no free voice, the "uh" stays
    voice = [(0.0, 1.0), (1.6, 2.0)]
    ws = words(("and", 0.0, 1.0), ("uh", 0.7, 1.3), ("then", 1.6, 2.0))
    placed = place_filled_pauses(ws, voice)
    assert ("uh", 0.7, 1.0) in _times(placed)


def test_filler_on_silence_far_from_any_voice_is_dropped() -> None:
    voice = [(0.0, 0.5), (5.0, 5.5)]
    ws = words(("one", 0.0, 0.5), ("um", 2.5, 2.8), ("two", 5.0, 5.5))
    placed = place_filled_pauses(ws, voice)
    assert [w.text for w in placed] == ["one", "two"]


def test_filler_on_silence_next_to_covered_voice_goes_to_its_edge() -> None:
    voice = [(0.0, 1.0), (3.0, 3.5)]
    ws = words(("one", 0.0, 1.0), ("um", 1.3, 1.6), ("two", 3.0, 3.5))
    placed = place_filled_pauses(ws, voice)
    assert ("um", 0.7, 1.0) in _times(placed)


def test_long_free_stretch_gives_at_most_max_filler_s() -> None:
    voice = [(0.0, 0.4), (0.6, 3.6), (4.0, 4.4)]
    ws = words(("so", 0.0, 0.4), ("um", 1.0, 1.4), ("yes", 4.0, 4.4))
    placed = place_filled_pauses(ws, voice, fillers.FillerOptions(max_filler_s=1.0))
    assert ("um", 1.0, 1.4) in _times(placed)


def test_slivers_at_word_edges_are_not_stretches() -> None:
    # 0.06 s of voice after "we" is the word's edge; the filler goes to 1.0-1.4 s
    voice = [(0.0, 0.56), (1.0, 1.4), (2.0, 2.5)]
    ws = words(("we", 0.0, 0.5), ("um", 0.5, 0.8), ("go", 2.0, 2.5))
    placed = place_filled_pauses(ws, voice)
    assert ("um", 1.0, 1.4) in _times(placed)


def test_words_without_fillers_are_untouched() -> None:
    ws = words(("we", 0.0, 0.5), ("go", 0.6, 0.9))
    assert place_filled_pauses(ws, [(0.0, 0.9)]) == ws
    assert place_filled_pauses([], []) == []


def test_speech_spans_pull_in_over_quiet_frames() -> None:
    voiced = np.array([False, True, True, True, False, True])  # 30 ms frames
    db = np.full(18, -80.0, np.float32)
    db[4:8] = -20.0  # 0.04-0.08 s loud
    db[15:17] = -25.0
    spans = pauses.speech_spans(voiced, frame_s=0.03, rms_db=db)
    assert spans == [(0.04, 0.08), (0.15, 0.17)]
    assert pauses.speech_spans(voiced, frame_s=0.03) == [(0.03, 0.12), (0.15, 0.18)]


# --- audio-found fillers that are not there -------------------------------------------------


def _tracks(seconds: float, steady: list[tuple[float, float]]) -> Tracks:
    n = int(round(seconds / HOP_S))
    f0 = np.full(n, np.nan, np.float32)
    db = np.full(n, -60.0, np.float32)
    for a, b in steady:
        i, j = int(round(a / HOP_S)), int(round(b / HOP_S))
        f0[i:j], db[i:j] = 120.0, -20.0
    return Tracks(f0, db, np.ones(n // 3 + 1, bool))


def test_no_audio_filler_from_a_words_trailing_edge() -> None:
    # steady voice 1.0-1.6 s: "well" (written 0.6-1.1) runs on into it
    ws = words(("so", 0.0, 0.3), ("well", 0.6, 1.1), ("then", 2.5, 2.9))
    _, marked = fillers.tag_fillers(ws)
    tracks = _tracks(4.0, [(1.12, 1.6)])
    assert acoustic.recover_filled_pauses(ws, marked, tracks) == []
    # the same stretch after a break in the voice is a filler
    tracks = _tracks(4.0, [(1.3, 1.8)])
    found = acoustic.recover_filled_pauses(ws, marked, tracks)
    assert found == [FillerItem("uh/um", 1.3, 1.8, "filled_pause", "audio")]


def test_no_audio_filler_in_the_clips_last_frames() -> None:
    # issue 8: "uh/um" at 32.95-33.2 s of a 33.21 s clip
    ws = words(("one", 31.0, 31.5), ("more", 31.6, 32.0))
    _, marked = fillers.tag_fillers(ws)
    tracks = _tracks(33.21, [(32.95, 33.2)])
    assert acoustic.recover_filled_pauses(ws, marked, tracks) == []
    tracks = _tracks(34.0, [(32.5, 32.9)])
    assert len(acoustic.recover_filled_pauses(ws, marked, tracks)) == 1


# --- pace from voiced edges -----------------------------------------------------------------


def test_pace_span_from_the_voice_around_the_first_and_last_words() -> None:
    # Whisper starts the first word 0.3 s late and ends the last 0.4 s early, both inside
    # their voice
    voice = [(1.0, 2.0), (2.5, 4.0)]
    ws = words(("one", 1.3, 1.6), ("two", 1.6, 2.0), ("three", 2.5, 3.0), ("four", 3.0, 3.6))
    assert pace.voiced_span(ws, ws, voice) == (1.0, 4.0)
    stats = pace.pace(ws, span=pace.voiced_span(ws, ws, voice))
    assert stats.speaking_s == 3.0 and stats.wpm == 80.0
    assert pace.pace(ws).speaking_s == pytest.approx(2.3)


def test_pace_span_stops_at_other_words_in_the_same_voice() -> None:
    voice = [(0.5, 2.0), (2.5, 4.0)]
    ws = words(("um", 0.5, 0.9), ("one", 1.0, 1.5), ("two", 1.5, 2.0), ("three", 2.5, 3.2),
               ("ha", 3.5, 4.0))  # fmt: skip
    lexical = ws[1:4]
    assert pace.voiced_span(lexical, ws, voice) == (0.9, 3.5)


def test_pace_span_edge_on_no_voice_stays() -> None:
    ws = words(("one", 0.0, 0.5), ("two", 0.6, 1.0))
    assert pace.voiced_span(ws, ws, [(0.2, 0.4)]) == (0.0, 1.0)
    assert pace.voiced_span([], [], [(0.2, 0.4)]) == (0.0, 0.0)


def test_no_audio_filler_from_a_word_squeezed_inside_the_stretch() -> None:
    # Whisper gave "Montreal" 0.1 s in the middle of its 0.55 s of voice
    ws = words(("but", 1.0, 1.4), ("Montreal.", 4.32, 4.42), ("but", 5.2, 5.5))
    _, marked = fillers.tag_fillers(ws)
    assert acoustic.recover_filled_pauses(ws, marked, _tracks(8.0, [(4.23, 4.78)])) == []


def test_a_whole_stretch_beats_the_uncovered_start_of_a_word() -> None:
    # practice talk: "um" said at 11.28-11.69 s, written at 11.91 s inside the voice of
    # "and 23 ..." (from 11.88 s), whose "and" Whisper starts late at 12.07 s
    voice = [(10.19, 11.19), (11.28, 11.69), (11.88, 13.95)]
    ws = words(("buys,", 10.81, 11.19), ("um,", 11.91, 11.97), ("and", 12.07, 12.17),
               ("23", 12.17, 12.67))  # fmt: skip
    placed = place_filled_pauses(ws, voice)
    assert ("um,", 11.28, 11.69) in _times(placed)
    # with no whole stretch in reach, the uncovered start is taken
    placed = place_filled_pauses(ws, [(10.19, 11.19), (11.88, 13.95)])
    assert ("um,", 11.88, 12.07) in _times(placed)
