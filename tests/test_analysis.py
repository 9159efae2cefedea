"""The pure analysis functions on synthetic transcripts and tracks with known answers."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from conftest import fixture_path, manifest_entry, spaced, words

from coach import SAMPLE_RATE, audio
from coach.analysis import acoustic, disfluency, fillers, pace, pauses, prosody, tips
from coach.analysis.fillers import FillerItem
from coach.analysis.prosody import HOP_S, Tracks, TrailOff
from coach.errors import CoachError, OptionsError
from coach.transcript import Word
from coach.vad import VadOptions

# --- fillers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "form"),
    [
        ("um", "um"), ("umm", "um"), ("uhm", "um"), ("erm", "um"), ("uh", "uh"), ("uhh", "uh"),
        ("er", "er"), ("err", "er"), ("ah", "ah"), ("ahh", "ah"), ("hm", "hm"), ("hmm", "hm"),
        ("mmm", "hm"), ("mhm", "hm"), ("her", None), ("'er", None), ("um's", None),
        ("umbrella", None), ("a", None), ("the", None),
    ],
)  # fmt: skip
def test_filled_pause_form(token: str, form: str | None) -> None:
    assert fillers.filled_pause_form(token) == form


def test_filled_pauses_in_transcript_are_canonical() -> None:
    ws = words(("Um,", 0.0, 0.3), ("we", 0.4, 0.5), ("Uhh", 0.6, 0.9), ("ship.", 1.0, 1.3),
               ("Hmm.", 2.0, 2.4), ("Erm", 3.0, 3.3), ("ok", 3.4, 3.6))  # fmt: skip
    items, marked = fillers.tag_fillers(ws)
    assert [(it.text, it.start_s, it.kind, it.source) for it in items] == [
        ("um", 0.0, "filled_pause", "transcript"),
        ("uh", 0.6, "filled_pause", "transcript"),
        ("hm", 2.0, "filled_pause", "transcript"),
        ("um", 3.0, "filled_pause", "transcript"),
    ]
    assert marked == {0, 2, 4, 5}


def test_her_is_not_a_filler() -> None:
    items, marked = fillers.tag_fillers(spaced("I told her mother"))
    assert items == [] and marked == set()


def test_elided_her_is_not_a_filler() -> None:
    items, marked = fillers.tag_fillers(spaced("I told 'er mother"))
    assert items == [] and marked == set()


def test_same_time_repeats_collapse_by_min_spacing() -> None:
    ws = words(("uh", 1.0, 1.3), ("uh", 1.0, 1.3), ("uh", 1.1, 1.3), ("uh", 2.0, 2.3),
               ("go", 2.4, 2.6))  # fmt: skip
    items, marked = fillers.tag_fillers(ws, fillers.FillerOptions(min_spacing_s=0.12))
    assert [(it.text, it.start_s) for it in items] == [("uh", 1.0), ("uh", 2.0)]
    assert marked == {0, 1, 2, 3}
    # a wider spacing also swallows the repeat one second later
    items, _ = fillers.tag_fillers(ws, fillers.FillerOptions(min_spacing_s=1.5))
    assert [(it.text, it.start_s) for it in items] == [("uh", 1.0)]


def _discourse(text: str) -> list[tuple[str, str]]:
    """(filler, first word) of every discourse filler in an evenly spaced sentence."""
    ws = spaced(text)
    items, _ = fillers.tag_fillers(ws)
    out = []
    for it in items:
        if it.kind == "discourse":
            first = next(w for w in ws if w.start_s == it.start_s)
            out.append((it.text, first.text))
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It was, you know, fine.", [("you know", "you")]),
        ("You know, we never tested it.", [("you know", "You")]),
        ("Do you know that it works?", []),
        ("I wonder if you know how.", []),
        ("Reviews also spread knowledge, like, new hires learn faster.", [("like", "like,")]),
        ("I like it.", []),
        ("MFA is like putty.", []),
        ("Tools like GitHub help.", []),
        ("It looks like rain.", []),
        ("It was kind of slow.", [("kind of", "kind")]),
        ("It is a kind of tool.", []),
        ("So, we started.", [("so", "So,")]),
        ("So we started.", [("so", "So")]),
        ("We did so.", []),
        ("It was so good.", []),
        ("Okay.", []),
        ("Okay, let's go.", [("okay", "Okay,")]),
        ("Basically it works.", [("basically", "Basically")]),
    ],
)
def test_discourse_fillers(text: str, expected: list[tuple[str, str]]) -> None:
    assert _discourse(text) == expected


def test_like_after_be_is_not_counted_even_set_off() -> None:
    # Whisper writes "MFA is, like, putty" with commas for a comparison (../shared/eval
    # mfa_putty.flac), so after a form of "be" commas cannot tell a filler from a
    # comparison or a quotative; coach does not count it rather than invent a filler.
    assert _discourse("It was, like, huge.") == []
    assert _discourse("MFA is, like, putty.") == []


def test_like_set_off_by_pauses_is_a_filler() -> None:
    # no commas, but 0.4 s silences on either side
    ws = words(("they", 0.0, 0.3), ("said", 0.3, 0.6), ("like", 1.0, 1.2), ("twenty", 1.6, 2.0))
    items, marked = fillers.tag_fillers(ws)
    assert [(it.text, it.start_s, it.end_s) for it in items] == [("like", 1.0, 1.2)]
    assert marked == {2}


def test_lexical_words_drop_fillers_cutoffs_and_laughter() -> None:
    ws = spaced("Ha ha um the mon- Montreal team, you know, grew hahaha.")
    items, marked = fillers.tag_fillers(ws)
    lex = fillers.lexical_words(ws, marked)
    assert [w.text for w in lex] == ["the", "Montreal", "team,", "grew"]
    assert sorted(it.text for it in items) == ["um", "you know"]


def test_summarize_counts_and_rate() -> None:
    items = [
        FillerItem("like", 5.0, 5.2, "discourse", "transcript"),
        FillerItem("um", 1.0, 1.3, "filled_pause", "transcript"),
        FillerItem("uh", 9.0, 9.3, "filled_pause", "audio"),
        FillerItem("um", 3.0, 3.3, "filled_pause", "transcript"),
    ]
    s = fillers.summarize(items, speaking_s=30.0)
    assert s.count == 4
    assert s.per_minute == 8.0
    assert s.filled_pauses == {"um": 2, "uh": 1}
    assert s.discourse == {"like": 1}
    assert [it.start_s for it in s.items] == [1.0, 3.0, 5.0, 9.0]
    assert fillers.summarize([], speaking_s=0.0).per_minute == 0.0


# --- pace -----------------------------------------------------------------------------------


def _even(n: int, start_s: float, step_s: float) -> list[Word]:
    return [Word(f"w{i}", start_s + i * step_s, start_s + (i + 1) * step_s) for i in range(n)]


def test_pace_exact() -> None:
    ws = _even(30, 0.0, 0.5)  # 30 words over exactly 15 s
    stats = pace.pace(ws, pause_total_s=3.0)
    assert stats.wpm == 120.0
    assert stats.articulation_wpm == 150.0  # 30 words in 12 s of talking
    assert stats.speaking_s == 15.0
    assert stats.stretches == []
    assert pace.pace(ws[:1]).wpm == 0.0


WINDOWS = pace.PaceOptions(window_s=20.0, hop_s=5.0)
"""20 s windows every 5 s, whatever the defaults are tuned to."""


def _rushed_middle() -> list[Word]:
    """20 s at 120 wpm, 20 s at 240 wpm, 20 s at 120 wpm: 160 wpm overall (inside the band)."""
    return _even(40, 0.0, 0.5) + _even(80, 20.0, 0.25) + _even(40, 40.0, 0.5)


def test_pace_timeline_flags_fast_stretch() -> None:
    stats = pace.pace(_rushed_middle(), options=WINDOWS)
    assert stats.wpm == 160.0
    by_start = {p.start_s: p for p in stats.timeline}
    assert (by_start[20.0].wpm, by_start[20.0].words, by_start[20.0].flag) == (240.0, 80, "fast")
    assert (by_start[5.0].wpm, by_start[5.0].flag) == (150.0, None)
    assert by_start[10.0].flag == "fast" and by_start[35.0].flag is None
    # windows starting at 10..30 s are fast: 180, 210, 240, 210, 180 wpm
    assert stats.stretches == [pace.PaceStretch(10.0, 50.0, "fast", 204.0)]
    slow = pace.pace(_even(30, 0.0, 1.0), options=WINDOWS)
    assert slow.wpm == 60.0 and [s.flag for s in slow.stretches] == ["slow"]


# --- pauses ---------------------------------------------------------------------------------


def _flags(*runs: tuple[bool, int]) -> np.ndarray:
    return np.concatenate([np.full(n, v, bool) for v, n in runs])


def test_silent_gaps_exact() -> None:
    v = _flags((True, 10), (False, 10), (True, 5), (False, 50), (True, 10), (False, 8),
               (True, 7))  # fmt: skip
    gaps = pauses.silent_gaps(v, frame_s=0.03, start_s=0.0, end_s=3.0, min_s=0.25)
    # the 8-frame (0.24 s) gap is too short
    assert gaps == [(0.3, 0.6), (0.75, 2.25)]
    # the window clips the gaps to frames inside it
    assert pauses.silent_gaps(v, frame_s=0.03, start_s=0.45, end_s=1.5, min_s=0.25) == [(0.75, 1.5)]
    assert pauses.silent_gaps(v, frame_s=0.03, start_s=2.0, end_s=1.0, min_s=0.25) == []


def test_pauses_positions_from_punctuation() -> None:
    ws = words(("Hello", 0.0, 0.5), ("there.", 0.5, 1.0), ("We", 1.5, 1.8),
               ("shipped,", 1.8, 2.2), ("then", 2.6, 2.9), ("we", 2.9, 3.1),
               ("waited.", 4.8, 5.4))  # fmt: skip
    v = _flags((True, 5), (False, 2), (True, 3), (False, 5), (True, 7), (False, 4), (True, 5),
               (False, 17), (True, 6), (False, 6))  # fmt: skip
    opts = pauses.PauseOptions(min_pause_s=0.25, long_pause_s=1.5)
    stats = pauses.pauses(ws, v, frame_s=0.1, options=opts)
    assert stats.items == [
        pauses.Pause(1.0, 1.5, "sentence", False),
        pauses.Pause(2.2, 2.6, "clause", False),
        pauses.Pause(3.1, 4.8, "within_clause", True),
    ]
    assert (stats.count, stats.long_count) == (3, 1)
    assert (stats.at_sentence, stats.at_clause, stats.within_clause) == (1, 1, 1)
    assert stats.total_s == 2.6
    assert stats.mean_s == 0.867
    assert stats.items[2].duration_s == 1.7
    # only the long threshold moves
    stats = pauses.pauses(ws, v, frame_s=0.1, options=pauses.PauseOptions(long_pause_s=0.4))
    assert [p.long for p in stats.items] == [True, True, True]
    assert pauses.pauses(ws[:1], v, frame_s=0.1).count == 0


# --- prosody --------------------------------------------------------------------------------


def _tone_tracks(name: str) -> Tracks:
    samples = audio.load(fixture_path(name))
    # webrtcvad may not call a pure tone speech: mark every 30 ms frame voiced
    voiced = np.ones(samples.size // 480, bool)
    return prosody.frame_tracks(samples, voiced)


def test_pitch_of_220_hz_tone() -> None:
    tracks = _tone_tracks("tone_220hz.wav")
    assert tracks.f0_hz.size == 2 * SAMPLE_RATE // 160
    stats = prosody.pitch_stats(tracks, prosody.ProsodyOptions(monotone_st=2.0))
    assert stats.median_hz == pytest.approx(220.0, rel=0.02)
    assert stats.spread_st < 0.3
    assert stats.voiced_s >= 1.5
    assert stats.monotone is True


def test_pitch_of_glide() -> None:
    stats = prosody.pitch_stats(
        _tone_tracks("tone_glide.wav"), prosody.ProsodyOptions(monotone_st=2.0)
    )
    # 150 -> 300 Hz evenly in semitones: median 212 Hz, spread 12 / sqrt(12) = 3.46 st
    assert stats.median_hz == pytest.approx(212.1, rel=0.03)
    assert stats.spread_st > 2.0
    assert stats.range_st > 9.0
    assert stats.monotone is False


def test_clean_pitch_folds_octave_spikes_back_to_a_100_hz_voice() -> None:
    f0 = np.full(300, 100.0)
    f0[40] = 400.0  # one frame two octaves up
    f0[80:82] = 500.0  # two frames at the 5th harmonic
    f0[120:135] = 200.0  # a run an octave up
    f0[170:180] = 300.0  # a run at the 3rd harmonic
    f0[220:232] = 50.0  # a run an octave down (subharmonic)
    f0[260:263] = np.nan  # a short unvoiced gap
    before = prosody.pitch_stats(Tracks(f0.astype(np.float32), np.zeros(300), np.zeros(0, bool)))
    assert before.spread_st > 5 and before.range_st >= 12
    out = prosody.clean_pitch(f0)
    assert out.dtype == np.float32 and out.shape == f0.shape
    # the runs are folded back, the one- and two-frame spikes dropped
    assert np.allclose(out[~np.isnan(out)], 100.0, rtol=1e-4)
    assert np.isnan(out[[40, 80, 81, 260, 261, 262]]).all()
    assert np.isnan(out).sum() == 6
    stats = prosody.pitch_stats(Tracks(out, np.zeros(300, np.float32), np.zeros(0, bool)))
    assert (stats.median_hz, stats.spread_st, stats.range_st) == (100.0, 0.0, 0.0)


def test_clean_pitch_keeps_a_glide_and_mends_an_octave_error_in_it() -> None:
    # 150 -> 300 Hz in 2 s, even in semitones (as tone_glide.wav)
    glide = 150.0 * 2 ** (np.arange(200) / 200)
    out = prosody.clean_pitch(glide)
    # the 5-frame median is exact inside; at each end it sees only 3 frames (0.06 st off)
    assert np.allclose(out[2:-2], glide[2:-2], rtol=1e-4)
    assert np.allclose(out, glide, rtol=4e-3)
    broken = glide.copy()
    broken[100:110] *= 2  # YIN's pick an octave up halfway along
    assert np.allclose(prosody.clean_pitch(broken), out, rtol=1e-4)
    stats = prosody.pitch_stats(Tracks(out, np.zeros(200, np.float32), np.zeros(0, bool)))
    assert stats.spread_st == pytest.approx(12 / np.sqrt(12), abs=0.02)


def test_clean_pitch_drops_isolated_voiced_frames_and_keeps_the_shape() -> None:
    f0 = np.full(200, np.nan)
    f0[50:53] = 120.0  # 30 ms: a glitch, not a vowel
    f0[100:110] = 120.0  # 100 ms: kept
    out = prosody.clean_pitch(f0)
    assert np.isnan(out[50:53]).all() and np.allclose(out[100:110], 120.0)
    assert prosody.clean_pitch(np.full(10, np.nan)).shape == (10,)
    assert prosody.clean_pitch(np.zeros(0)).shape == (0,)


def test_octave_fix_off_keeps_the_old_neighbour_check() -> None:
    tracks = prosody.frame_tracks(
        audio.load(fixture_path("tone_220hz.wav")), np.ones(SAMPLE_RATE * 2 // 480, bool),
        options=prosody.ProsodyOptions(octave_fix=False),
    )  # fmt: skip
    assert prosody.pitch_stats(tracks).median_hz == pytest.approx(220.0, rel=0.02)


def test_pitch_needs_voiced_frames() -> None:
    samples = audio.load(fixture_path("tone_220hz.wav"))
    tracks = prosody.frame_tracks(samples, np.zeros(samples.size // 480, bool))
    assert np.isnan(tracks.f0_hz).all()
    assert prosody.pitch_stats(tracks) == prosody.PitchStats()


def _level_tracks(seconds: float, quiet: list[tuple[float, float]]) -> Tracks:
    """-20 dB everywhere except -30 dB over the ``quiet`` spans (seconds)."""
    n = int(round(seconds / HOP_S))
    db = np.full(n, -20.0, np.float32)
    for a, b in quiet:
        db[int(round(a / HOP_S)) : int(round(b / HOP_S))] = -30.0
    return Tracks(np.full(n, np.nan, np.float32), db, np.ones(n // 3 + 1, bool))


def test_energy_trail_off() -> None:
    ws = words(("We", 0.0, 0.2), ("ship", 0.2, 0.4), ("every", 0.4, 0.6),
               ("single", 0.6, 0.8), ("week.", 0.8, 1.0),  # last word 10 dB down
               ("Then", 1.2, 1.4), ("we", 1.4, 1.6), ("rest", 1.6, 1.8), ("a", 1.8, 2.0),
               ("lot.", 2.0, 2.2),  # even
               ("Too", 2.4, 2.6), ("short.", 2.6, 2.8))  # fmt: skip
    tracks = _level_tracks(3.0, [(0.8, 1.0), (2.6, 2.8)])
    opts = prosody.ProsodyOptions(trail_off_db=6.0, min_sentence_words=4)
    stats = prosody.energy_stats(tracks, ws, opts)
    assert stats.sentences == 2  # "Too short." has fewer than 4 words
    assert stats.trail_offs == [TrailOff(0.8, 1.0, 10.0)]
    loose = prosody.ProsodyOptions(trail_off_db=12.0)
    assert prosody.energy_stats(tracks, ws, loose).trail_offs == []


# --- repetitions and hedges -----------------------------------------------------------------


def test_repetitions_and_restarts() -> None:
    ws = spaced("the the plan but um but mon- Montreal that that works")
    _, marked = fillers.tag_fillers(ws)
    stats = disfluency.repetitions(ws, marked, speaking_s=60.0)
    assert [(it.text, it.kind, it.start_s, it.end_s) for it in stats.items] == [
        ("the", "repetition", 0.0, 0.55),
        ("but", "repetition", 0.9, 1.75),
        ("montreal", "restart", 1.8, 2.35),
    ]
    assert (stats.count, stats.per_minute) == (3, 3.0)


def test_repeat_after_long_gap_is_not_a_stumble() -> None:
    ws = words(("now", 0.0, 0.3), ("now", 3.0, 3.3))
    assert disfluency.repetitions(ws, set(), speaking_s=3.3).count == 0


def test_hedges() -> None:
    ws = spaced("I think we should maybe just ship it, it was kind of slow")
    stats = disfluency.hedges(ws, speaking_s=30.0)
    assert [(it.text, it.start_s, it.end_s) for it in stats.items] == [
        ("i think", 0.0, 0.55),
        ("maybe", 1.2, 1.45),
        ("just", 1.5, 1.75),
        ("kind of", 3.0, 3.55),
    ]
    assert stats.by_phrase == {"i think": 1, "maybe": 1, "just": 1, "kind of": 1}
    assert stats.per_minute == 8.0
    assert disfluency.hedges(spaced("it is a kind of tool"), speaking_s=5.0).count == 0


# --- filled pauses from the audio -----------------------------------------------------------


def test_recover_filled_pauses() -> None:
    n = 400  # 4 s
    f0 = np.full(n, np.nan, np.float32)
    db = np.full(n, -60.0, np.float32)

    def voice(a: float, b: float, hz: np.ndarray | float) -> None:
        i, j = int(round(a / HOP_S)), int(round(b / HOP_S))
        f0[i:j] = hz
        db[i:j] = -20.0

    voice(0.0, 0.7, np.linspace(110, 160, 70))  # "We shipped": covered by words
    voice(1.0, 1.4, 120.0)  # a steady "uh" no word covers -> found
    voice(1.8, 2.3, 118.0)  # steady, but the word "then" covers it
    voice(2.6, 3.0, np.geomspace(100, 200, 40))  # uncovered but gliding a whole octave
    voice(3.2, 3.3, 120.0)  # uncovered and steady, but 0.1 s is too short
    voice(3.5, 3.9, 121.0)  # steady and uncovered, but next to the transcript's own "um"
    tracks = Tracks(f0, db, np.ones(n // 3 + 1, bool))
    ws = words(("We", 0.0, 0.3), ("shipped", 0.3, 0.7), ("then", 1.8, 2.3), ("um", 3.9, 4.0))
    _, marked = fillers.tag_fillers(ws)
    found = acoustic.recover_filled_pauses(ws, marked, tracks)
    assert found == [FillerItem("uh/um", 1.0, 1.4, "filled_pause", "audio")]
    off = acoustic.AcousticOptions(enabled=False)
    assert acoustic.recover_filled_pauses(ws, marked, tracks, options=off) == []


# --- tips -----------------------------------------------------------------------------------


def test_tips_rank_by_severity_and_carry_times() -> None:
    stats = {
        "pace": pace.PaceStats(wpm=200.0, speaking_s=60.0,
                               stretches=[pace.PaceStretch(12.0, 40.0, "fast", 210.0)]),
        "pauses": pauses.PauseStats(items=[
            pauses.Pause(5.0, 6.8, "within_clause", True),
            pauses.Pause(20.0, 21.6, "within_clause", True),
            pauses.Pause(30.0, 32.0, "within_clause", True),
            pauses.Pause(40.0, 42.0, "sentence", True),
        ]),
        "fillers": fillers.summarize(
            [FillerItem("um", 3.5 + i, 3.8 + i, "filled_pause", "transcript")
             for i in range(12)], speaking_s=60.0),
        "pitch": prosody.PitchStats(median_hz=110.0, spread_st=1.0, monotone=True,
                                    voiced_s=30.0),
        "energy": prosody.EnergyStats(),
        "repetitions": disfluency.RepetitionStats(),
        "hedges": disfluency.HedgeStats(),
    }  # fmt: skip
    opts = tips.TipOptions(fillers_per_min=3.0, within_clause_pauses=3, max_tips=5)
    out = tips.tips(**stats, options=opts)
    # fillers 12/3 = 4.0, pitch 2/1 = 2.0, pace 200/165 = 1.21, pauses 3/3 = 1.0
    assert [t.area for t in out] == ["fillers", "pitch", "pace", "pauses"]
    assert [t.at_s for t in out] == [3.5, None, 12.0, 5.0]
    assert out[0].value == 12.0 and '"um" x12' in out[0].message
    assert out[2].severity == pytest.approx(200 / 165)
    assert "0:05" in out[3].message
    assert [t.area for t in tips.tips(**stats, options=replace(opts, max_tips=2))] == [
        "fillers",
        "pitch",
    ]


def test_tips_for_a_rushed_stretch_inside_the_band() -> None:
    p = pace.pace(_rushed_middle(), options=WINDOWS)
    out = tips.tips(pace=p, pauses=pauses.PauseStats(), fillers=fillers.FillerStats(),
                    pitch=prosody.PitchStats(), energy=prosody.EnergyStats(),
                    repetitions=disfluency.RepetitionStats(),
                    hedges=disfluency.HedgeStats())  # fmt: skip
    assert [(t.area, t.metric, t.value, t.at_s) for t in out] == [
        ("pace", "stretch_wpm", 204.0, 10.0)
    ]
    assert "from 0:10 to 0:50" in out[0].message


# --- options --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: VadOptions(aggressiveness=5),
        lambda: VadOptions(frame_ms=25),
        lambda: pauses.PauseOptions(min_pause_s=2, long_pause_s=1),
        lambda: pauses.PauseOptions(min_pause_s=0),
        lambda: pace.PaceOptions(band_wpm=(200, 100)),
        lambda: pace.PaceOptions(window_s=0),
        lambda: prosody.ProsodyOptions(octave_st=0),
        lambda: prosody.ProsodyOptions(smooth_frames=0),
    ],
)
def test_invalid_options_raise(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(OptionsError) as info:
        make()
    assert isinstance(info.value, CoachError)
    assert "\n" not in str(info.value)


# --- the practice talk's manifest -----------------------------------------------------------


def _talk_transcript() -> tuple[list[Word], np.ndarray, dict]:
    """The practice talk as a perfect recogniser would write it, from the manifest.

    Each phrase's words share its span evenly; voice is on exactly over the phrases.
    """
    entry = manifest_entry("practice_talk.wav")
    ws: list[Word] = []
    voiced = np.zeros(int(round(entry["duration_s"] * 100)), bool)
    for seg in entry["segments"]:
        if seg["kind"] == "silence":
            continue
        toks = seg["text"].split()
        step = (seg["end_s"] - seg["start_s"]) / len(toks)
        for i, tok in enumerate(toks):
            ws.append(Word(tok, seg["start_s"] + i * step, seg["start_s"] + (i + 1) * step))
        voiced[int(round(seg["start_s"] * 100)) : int(round(seg["end_s"] * 100))] = True
    return ws, voiced, entry


def test_practice_talk_manifest_agrees_with_analysis() -> None:
    ws, voiced, entry = _talk_transcript()
    want = entry["expected"]
    items, marked = fillers.tag_fillers(ws)
    stats = fillers.summarize(items, speaking_s=60.0)
    assert stats.filled_pauses == want["filled_pauses"]
    assert stats.discourse == want["discourse_fillers"]
    assert [(it.text, it.start_s) for it in items] == [
        (f["text"], pytest.approx(f["start_s"])) for f in entry["fillers"]
    ]
    assert len(fillers.lexical_words(ws, marked)) == want["lexical_words"]
    assert disfluency.hedges(ws, speaking_s=60.0).by_phrase == want["hedges"]
    opts = pauses.PauseOptions(min_pause_s=want["pauses_min_s"], long_pause_s=1.5)
    p = pauses.pauses(ws, voiced, frame_s=0.01, options=opts)
    assert p.count == want["pauses"]
    assert p.long_count == want["long_pauses"]
    assert p.total_s == pytest.approx(want["pause_total_s"], abs=0.011)
    by_position = {
        "sentence": p.at_sentence,
        "clause": p.at_clause,
        "within_clause": p.within_clause,
    }
    assert {k: v for k, v in by_position.items() if v} == want["pauses_by_position"]
