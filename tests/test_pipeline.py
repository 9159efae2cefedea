"""The scoring pipeline without models: chunking, time mapping, analysis of measured input."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import words

from coach import SAMPLE_RATE
from coach.analysis.prosody import Tracks
from coach.asr import _join_regions, _to_source_time
from coach.score import Measured, ScoreOptions, analyze, chunks


def _blocks(y: np.ndarray, block_s: float) -> list[np.ndarray]:
    n = int(block_s * SAMPLE_RATE)
    return [y[i : i + n] for i in range(0, y.size, n)]


def test_chunks_cover_everything_in_order_and_cut_in_quiet() -> None:
    rng = np.random.default_rng(0)
    y = (rng.standard_normal(SAMPLE_RATE * 25) * 0.1).astype(np.float32)
    y[int(8.5 * SAMPLE_RATE) : int(8.8 * SAMPLE_RATE)] = 0.0  # a silence near 10 s
    out = list(chunks(_blocks(y, 3.0), chunk_s=10.0))
    assert np.array_equal(np.concatenate([c for c, _ in out]), y)
    offsets = [o for _, o in out]
    sizes = [c.size for c, _ in out]
    assert offsets[0] == 0.0
    for (_c, o), size, nxt in zip(out, sizes, offsets[1:], strict=False):
        assert nxt == pytest.approx(o + size / SAMPLE_RATE)
    # the first cut lands in the silence, on a 30 ms boundary
    assert 8.5 <= offsets[1] <= 8.8
    assert sizes[0] % 480 == 0
    assert all(size <= 10 * SAMPLE_RATE for size in sizes)


def test_chunks_of_short_audio_is_one_chunk() -> None:
    y = np.ones(1000, np.float32)
    assert [(c.size, o) for c, o in chunks([y], chunk_s=300)] == [(1000, 0.0)]


def test_join_regions_maps_times_back() -> None:
    y = np.arange(10 * SAMPLE_RATE, dtype=np.float32)
    joined, spans = _join_regions(y, [(1.0, 2.0), (5.0, 6.0)], pad_s=0.0)
    assert joined.size == 2 * SAMPLE_RATE
    assert _to_source_time(0.5, spans) == pytest.approx(1.5)
    assert _to_source_time(1.25, spans) == pytest.approx(5.25)
    # padding that makes regions touch merges them
    joined, spans = _join_regions(y, [(1.0, 2.0), (2.3, 3.0)], pad_s=0.2)
    assert len(spans) == 1 and joined.size == int(2.4 * SAMPLE_RATE)


def _measured(ws, seconds: float) -> Measured:
    n = int(seconds * 100)
    f0 = np.full(n, np.nan, np.float32)
    db = np.full(n, -80.0, np.float32)
    voiced = np.zeros(int(seconds / 0.03), bool)
    for w in ws:
        a, b = int(w.start_s * 100), int(w.end_s * 100)
        f0[a:b] = 120.0 * 2 ** (np.sin(np.arange(b - a) / 7) / 3)  # lively pitch
        db[a:b] = -20.0
        voiced[int(w.start_s / 0.03) : int(np.ceil(w.end_s / 0.03))] = True
    return Measured(ws, Tracks(f0, db, voiced), seconds)


def test_analyze_measured_words_end_to_end() -> None:
    ws = words(
        ("So,", 0.0, 0.3), ("today", 0.3, 0.6), ("we", 0.6, 0.9), ("ship.", 0.9, 1.2),
        ("Um,", 2.0, 2.4), ("the", 2.5, 2.7), ("the", 2.7, 2.9), ("plan", 2.9, 3.2),
        ("is,", 3.2, 3.5), ("you", 3.5, 3.7), ("know,", 3.7, 3.9), ("simple.", 3.9, 4.4),
    )  # fmt: skip
    report = analyze(_measured(ws, 5.0), ScoreOptions(), file="x.wav")
    assert report.error is None
    assert report.fillers.filled_pauses == {"um": 1}
    assert report.fillers.discourse == {"so": 1, "you know": 1}
    assert report.word_count == 8  # today we ship the the plan is simple
    assert [r.text for r in report.repetitions.items] == ["the"]
    assert report.pauses.count == 1 and report.pauses.items[0].position == "sentence"
    assert report.transcript.startswith("So, today")
    d = report.to_dict()
    assert d["words"][0] == {
        "text": "So,", "start_s": 0.0, "end_s": 0.3, "filler": True, "probability": 1.0,
    }  # fmt: skip


def test_analyze_no_words_is_an_error_not_a_crash() -> None:
    report = analyze(_measured([], 3.0), ScoreOptions(), file="quiet.wav")
    assert report.error and report.error.startswith("no speech found")
    assert report.words == [] and report.word_count == 0


def test_measure_runs_tracks_beside_the_asr_and_times_each_stage() -> None:
    from conftest import ManifestTranscriber, fixture_path

    from coach import audio
    from coach.analysis import prosody
    from coach.score import measure
    from coach.vad import VadOptions, voice_flags, voiced_flags

    y = audio.load(fixture_path("practice_talk.wav"))
    asr = ManifestTranscriber()
    m = measure(chunks(_blocks(y, 3.0), chunk_s=20.0), asr, ScoreOptions())
    assert len(asr.calls) >= 3  # several chunks
    assert {"decode_s", "vad_s", "asr_s", "tracks_s", "tracks_wait_s", "features_s"} <= set(
        m.timings_s
    )
    # the tracks measured in the second thread are those measured one chunk at a time
    parts = []
    for samples, _offset in chunks(_blocks(y, 3.0), chunk_s=20.0):
        flags = voiced_flags(audio.to_int16(samples))
        parts.append(prosody.frame_tracks(samples, voice_flags(samples, flags,
                                                               options=VadOptions())))  # fmt: skip
    want = prosody.Tracks.concat(parts)
    assert np.array_equal(m.tracks.voiced, want.voiced)
    assert np.allclose(m.tracks.f0_hz, want.f0_hz, equal_nan=True)
    assert m.duration_s == pytest.approx(y.size / SAMPLE_RATE)
