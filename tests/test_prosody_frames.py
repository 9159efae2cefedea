"""coach's numpy YIN, RMS and zero-crossing rate give librosa's figures."""

from __future__ import annotations

import numpy as np
import pytest

from coach import SAMPLE_RATE
from coach.analysis.prosody import _rms, _yin, _zcr


def _voice(seconds: float = 3.0) -> np.ndarray:
    rng = np.random.default_rng(1)
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    f = 140 + 40 * np.sin(2 * np.pi * 0.5 * t)  # a gliding pitch
    y = 0.3 * np.sin(2 * np.pi * np.cumsum(f) / SAMPLE_RATE)
    y[SAMPLE_RATE : SAMPLE_RATE + 4000] = 0.0  # a silence
    return (y + 0.01 * rng.standard_normal(t.size)).astype(np.float32)


def test_a_220_hz_tone_has_pitch_220() -> None:
    t = np.arange(SAMPLE_RATE) / SAMPLE_RATE
    f0 = _yin(np.sin(2 * np.pi * 220 * t).astype(np.float32), fmin=65, fmax=450,
              sr=SAMPLE_RATE, frame_length=1024, hop=160)  # fmt: skip
    assert np.nanmedian(f0) == pytest.approx(220, abs=0.5)


def test_same_figures_as_librosa() -> None:
    librosa = pytest.importorskip("librosa")
    y = _voice()
    want = librosa.yin(y, fmin=65, fmax=450, sr=SAMPLE_RATE, frame_length=1024, hop_length=160)
    assert np.array_equal(
        _yin(y, fmin=65, fmax=450, sr=SAMPLE_RATE, frame_length=1024, hop=160), want
    )
    rms = librosa.feature.rms(y=y, frame_length=400, hop_length=160, center=True)[0]
    assert np.array_equal(_rms(y, frame_length=400, hop=160), rms)
    zcr = librosa.feature.zero_crossing_rate(y, frame_length=400, hop_length=160)[0]
    assert np.array_equal(_zcr(y, frame_length=400, hop=160), zcr)


def test_pitch_only_where_asked() -> None:
    y = _voice()
    full = _yin(y, fmin=65, fmax=450, sr=SAMPLE_RATE, frame_length=1024, hop=160)
    only = np.zeros(full.size, bool)
    only[50:120] = True
    part = _yin(y, fmin=65, fmax=450, sr=SAMPLE_RATE, frame_length=1024, hop=160, only=only)
    assert np.array_equal(part[only], full[only])
    assert np.isnan(part[~only]).all()
