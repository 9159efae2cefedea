"""Voice activity: webrtcvad flags and merged regions on fixtures and constructed flags."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import fixture_path, manifest_entry

from coach import audio, vad
from coach.errors import OptionsError
from coach.vad import VadOptions

EDGE_S = 0.15
"""How far (s) a region edge may sit from the manifest's phrase edge (webrtcvad decides per
30 ms frame and holds on for a frame or three after speech ends)."""

OPTIONS = VadOptions(aggressiveness=2, frame_ms=30, merge_gap_s=0.3, min_region_s=0.09)
"""Fixed options, so retuning the defaults does not move these tests."""


def _flags(*runs: tuple[bool, int]) -> np.ndarray:
    return np.concatenate([np.full(n, v, bool) for v, n in runs])


def test_silence_has_no_speech() -> None:
    pcm = audio.to_int16(audio.load(fixture_path("silence.wav")))
    flags = vad.voiced_flags(pcm, options=OPTIONS)
    assert flags.shape == (pcm.size // 480,) and flags.dtype == bool
    assert not flags.any()
    assert vad.flags_to_regions(flags, options=OPTIONS) == []


def test_noise_has_no_speech_worth_a_region() -> None:
    flags, regions = vad.speech_regions(audio.load(fixture_path("noise.wav")), options=OPTIONS)
    assert flags.mean() < 0.05
    # webrtcvad may flag its first few frames while it adapts; nothing longer
    assert all(b - a <= 0.1 for a, b in regions)


def _phrase_groups(entry: dict, merge_gap_s: float) -> list[tuple[float, float]]:
    """The manifest's phrases, merged where the silence between them is below the gap."""
    groups: list[list[float]] = []
    for seg in entry["segments"]:
        if seg["kind"] == "silence":
            continue
        if groups and seg["start_s"] - groups[-1][1] < merge_gap_s:
            groups[-1][1] = seg["end_s"]
        else:
            groups.append([seg["start_s"], seg["end_s"]])
    return [(a, b) for a, b in groups]


@pytest.fixture(scope="module")
def talk_regions() -> list[tuple[float, float]]:
    samples = audio.load(fixture_path("practice_talk.wav"))
    _, regions = vad.speech_regions(samples, options=OPTIONS)
    return regions


def test_practice_talk_regions_match_manifest(talk_regions: list[tuple[float, float]]) -> None:
    entry = manifest_entry("practice_talk.wav")
    groups = _phrase_groups(entry, OPTIONS.merge_gap_s)
    starts = [a for a, _ in groups]
    ends = [b for _, b in groups]
    assert talk_regions, "no speech found in practice_talk.wav"
    # every region starts at a phrase start and ends at a phrase end (webrtcvad's hangover
    # may bridge a 0.4 s sentence gap, so a region can span several phrases)
    for a, b in talk_regions:
        assert min(abs(a - s) for s in starts) <= EDGE_S, f"region ({a}, {b}) starts off-phrase"
        assert min(abs(b - e) for e in ends) <= EDGE_S, f"region ({a}, {b}) ends off-phrase"
    # every phrase is inside a region
    for a, b in groups:
        assert any(ra - EDGE_S <= a and b <= rb + EDGE_S for ra, rb in talk_regions), (a, b)
    assert talk_regions[0][0] == pytest.approx(entry["speech_span_s"][0], abs=EDGE_S)
    assert talk_regions[-1][1] == pytest.approx(entry["speech_span_s"][1], abs=EDGE_S)


def test_practice_talk_long_pauses_split_regions(talk_regions: list[tuple[float, float]]) -> None:
    entry = manifest_entry("practice_talk.wav")
    long_gaps = [
        (s["start_s"], s["end_s"])
        for s in entry["segments"]
        if s["kind"] == "silence" and s["duration_s"] >= 1.5 and s["position"] != "tail"
    ]
    assert len(long_gaps) == entry["expected"]["long_pauses"] == 4
    for a, b in long_gaps:
        # no region reaches more than EDGE_S into a long pause
        assert all(rb <= a + EDGE_S or ra >= b - EDGE_S for ra, rb in talk_regions), (a, b)
    assert len(talk_regions) >= len(long_gaps) + 1


def test_merge_gap() -> None:
    # 0.3 s voiced, 0.15 s gap, 0.3 s voiced, 0.6 s gap, 0.3 s voiced (30 ms frames)
    flags = _flags((True, 10), (False, 5), (True, 10), (False, 20), (True, 10))
    assert vad.flags_to_regions(flags, options=OPTIONS) == [(0.0, 0.75), (1.35, 1.65)]
    tight = VadOptions(merge_gap_s=0.1, min_region_s=0.09)
    assert vad.flags_to_regions(flags, options=tight) == [(0.0, 0.3), (0.45, 0.75), (1.35, 1.65)]
    wide = VadOptions(merge_gap_s=1.0, min_region_s=0.09)
    assert vad.flags_to_regions(flags, options=wide) == [(0.0, 1.65)]
    assert vad.flags_to_regions(flags, options=OPTIONS, offset_s=10.0) == [
        (10.0, 10.75),
        (11.35, 11.65),
    ]


def test_short_regions_are_dropped() -> None:
    # a 60 ms click alone, then 0.3 s of voice
    flags = _flags((True, 2), (False, 20), (True, 10), (False, 3))
    assert vad.flags_to_regions(flags, options=OPTIONS) == [(0.66, 0.96)]
    assert vad.flags_to_regions(np.zeros(0, bool), options=OPTIONS) == []
    assert vad.flags_to_regions(np.ones(4, bool), options=OPTIONS) == [(0.0, 0.12)]


def test_voiced_flags_needs_int16() -> None:
    with pytest.raises(OptionsError, match="int16"):
        vad.voiced_flags(np.zeros(480, np.float32))


def test_voiced_flags_frame_count_drops_partial_frame() -> None:
    pcm = np.zeros(480 * 5 + 100, np.int16)
    assert vad.voiced_flags(pcm, options=OPTIONS).shape == (5,)
    ten = VadOptions(frame_ms=10)
    assert vad.voiced_flags(pcm, options=ten).shape == ((480 * 5 + 100) // 160,)


def test_hysteresis_starts_at_the_threshold_and_holds_down_to_0_15_less() -> None:
    prob = np.array([0.2, 0.6, 0.5, 0.46, 0.44, 0.59, 0.6])
    assert vad.hysteresis(prob, 0.6).tolist() == [False, True, True, True, False, False, True]


def test_resampled_flags_are_read_at_each_new_frame_centre() -> None:
    neural = np.array([False, True, True, False])  # 32 ms windows: speech 32-96 ms
    out = vad.resample_flags(neural, frame_s=0.032, to_frame_s=0.03, count=6)
    # centres 15, 45, 75, 105, 135 (past the windows), 165 ms
    assert out.tolist() == [False, True, True, False, False, False]


def _pink(n: int, seed: int = 0) -> np.ndarray:
    spec = np.fft.rfft(np.random.default_rng(seed).standard_normal(n))
    f = np.arange(spec.size, dtype=np.float64)
    f[0] = 1.0
    x = np.fft.irfft(spec / np.sqrt(f), n)
    return x / np.sqrt(np.mean(x**2))


def _silent_gaps(voice: np.ndarray, frame_s: float = 0.03) -> list[tuple[float, float]]:
    return [(a * frame_s, b * frame_s) for a, b in vad.true_runs(~voice) if b - a >= 9]


def test_in_steady_noise_the_neural_voice_keeps_the_silences_webrtcvad_loses() -> None:
    y = audio.load(fixture_path("practice_talk.wav"))
    loud = y[np.abs(y) > 0.01]
    noisy = (y + _pink(y.size) * np.sqrt(np.mean(loud**2)) * 10 ** (-5 / 20)).astype(np.float32)
    flags = vad.voiced_flags(audio.to_int16(noisy), options=OPTIONS)
    voice = vad.voice_flags(noisy, flags, options=VadOptions())
    silences = [(s["start_s"], s["end_s"]) for s in manifest_entry("practice_talk.wav")["segments"]
                if s["kind"] == "silence" and s["end_s"] - s["start_s"] >= 0.6]  # fmt: skip
    assert len(silences) >= 3
    # webrtcvad hears speech in the noise, so few silences are left at all
    assert len(_silent_gaps(flags)) < len(silences) // 2
    found = _silent_gaps(voice)
    for a, b in silences:  # each silence shows as a gap in the neural voice, edges near
        assert any(abs(c - a) < 0.25 and abs(d - b) < 0.25 for c, d in found), (a, b, found)


def test_the_neural_voice_is_webrtcvads_when_turned_off() -> None:
    y = audio.load(fixture_path("practice_talk.wav"))[: 16000 * 5]
    flags = vad.voiced_flags(audio.to_int16(y), options=OPTIONS)
    off = VadOptions(neural=False)
    assert vad.voice_flags(y, flags, options=off) is flags
    with pytest.raises(OptionsError, match="neural_threshold"):
        VadOptions(neural_threshold=0.1)


def test_the_neural_voice_leaves_the_audio_it_reads_untouched() -> None:
    # Silero's wrapper writes zeros into its input; the recogniser reads the same samples
    # in another thread (a Ray run once differed from a local one by these zeros)
    y = audio.load(fixture_path("practice_talk.wav"))[: 16000 * 3]
    before = y.copy()
    prob = vad.speech_probability(y)
    assert prob.size == y.size // 512 and np.array_equal(y, before)
