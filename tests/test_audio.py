"""coach.audio on the generated fixtures: probing, decoding, blocks and bad inputs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from conftest import FIXTURES, fixture_path, manifest_entry

from coach import SAMPLE_RATE, audio
from coach.errors import AudioError, CoachError

FRAME = 480
"""One 30 ms frame at 16 kHz, in samples: the tolerance on decoded lengths."""


def test_probe_wav() -> None:
    entry = manifest_entry("clean_sentence.wav")
    info = audio.probe(fixture_path("clean_sentence.wav"))
    assert (info.sample_rate_hz, info.channels, info.codec) == (16000, 1, "pcm_s16le")
    assert info.duration_s == pytest.approx(entry["duration_s"], abs=1e-3)
    assert info.path == fixture_path("clean_sentence.wav")


def test_probe_stereo_flac() -> None:
    entry = manifest_entry("stereo_44k.flac")
    info = audio.probe(fixture_path("stereo_44k.flac"))
    assert (info.sample_rate_hz, info.channels, info.codec) == (44100, 2, "flac")
    assert info.duration_s == pytest.approx(entry["duration_s"], abs=0.01)


def test_load_wav_is_the_file_as_float() -> None:
    path = fixture_path("clean_sentence.wav")
    x = audio.load(path)
    ref, rate = sf.read(path, dtype="float32")
    assert rate == SAMPLE_RATE
    assert x.dtype == np.float32 and x.ndim == 1
    assert x.size == manifest_entry("clean_sentence.wav")["samples"]
    np.testing.assert_allclose(x, ref, atol=1e-6)


def test_load_stereo_44k_flac_mixes_to_mono_16k() -> None:
    entry = manifest_entry("stereo_44k.flac")
    clean = audio.load(fixture_path("clean_sentence.wav"))
    x = audio.load(fixture_path("stereo_44k.flac"))
    assert x.dtype == np.float32 and x.ndim == 1
    assert abs(x.size - clean.size) <= FRAME
    n = min(x.size, clean.size)
    # left = clean, right = clean / 2: the channels are averaged, not summed at -3 dB
    assert np.corrcoef(x[:n], clean[:n])[0, 1] > 0.999
    gain = np.sqrt(np.mean(x[:n] ** 2) / np.mean(clean[:n] ** 2))
    assert gain == pytest.approx(entry["mono_gain"], abs=0.01)
    assert np.abs(x).max() <= 1.0


def test_load_resamples_to_requested_rate() -> None:
    x = audio.load(fixture_path("stereo_44k.flac"), sample_rate_hz=8000)
    assert abs(x.size - round(manifest_entry("stereo_44k.flac")["duration_s"] * 8000)) <= 240


def test_load_mp3() -> None:
    path = FIXTURES / "practice_short.mp3"
    if not path.exists():
        pytest.skip("practice_short.mp3 was not generated (no mp3 encoder)")
    x = audio.load(path)
    assert (
        abs(x.size - manifest_entry("practice_short.mp3")["duration_s"] * SAMPLE_RATE) <= 2 * FRAME
    )
    ref = audio.load(fixture_path("practice_talk.wav"))[: x.size]
    assert np.corrcoef(x, ref)[0, 1] > 0.9


@pytest.mark.parametrize("name", ["clean_sentence.wav", "stereo_44k.flac"])
def test_iter_blocks_sizes(name: str) -> None:
    blocks = list(audio.iter_blocks(fixture_path(name), block_s=1.0))
    sizes = [b.size for b in blocks]
    assert sizes[:-1] == [SAMPLE_RATE] * (len(sizes) - 1)
    assert 0 < sizes[-1] <= SAMPLE_RATE
    assert all(b.dtype == np.float32 for b in blocks)
    whole = audio.load(fixture_path(name))
    np.testing.assert_array_equal(np.concatenate(blocks), whole)


def test_iter_blocks_longer_than_file_is_one_block() -> None:
    blocks = list(audio.iter_blocks(fixture_path("silence.wav"), block_s=30.0))
    assert [b.size for b in blocks] == [3 * SAMPLE_RATE]
    assert not blocks[0].any()


def test_find_audio_files(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for name in ["b.wav", "a.MP3", "notes.txt", "sub/c.flac", "sub/d.json"]:
        (tmp_path / name).write_bytes(b"x")
    found = audio.find_audio_files([tmp_path])
    assert found == [tmp_path / "a.MP3", tmp_path / "b.wav", tmp_path / "sub" / "c.flac"]
    # a file named explicitly is kept whatever its ending, so it can be reported
    assert audio.find_audio_files([tmp_path / "notes.txt", tmp_path / "sub"]) == [
        tmp_path / "notes.txt",
        tmp_path / "sub" / "c.flac",
    ]


def test_find_audio_files_on_fixtures() -> None:
    found = audio.find_audio_files([FIXTURES])
    names = {p.name for p in found}
    assert "manifest.json" not in names
    assert {"practice_talk.wav", "stereo_44k.flac", "empty.wav"} <= names
    assert found == sorted(found)


def _load(path: Path) -> object:
    return audio.load(path)


def _blocks(path: Path) -> object:
    return list(audio.iter_blocks(path))


@pytest.mark.parametrize("call", [audio.probe, _load, _blocks], ids=["probe", "load", "blocks"])
@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("missing.wav", "no such file"),
        ("empty.wav", "empty"),
        ("not_audio.wav", "not a readable audio file"),
        (".", "folder"),
    ],
)
def test_bad_input_raises_audio_error(call: Callable[[Path], object], name: str, says: str) -> None:
    path = FIXTURES / name if name != "." else FIXTURES
    with pytest.raises(AudioError) as info:
        call(path)
    message = str(info.value)
    assert isinstance(info.value, CoachError) and info.value.exit_code == 2
    assert "\n" not in message
    assert path.name in message
    assert says in message


def test_truncated_wav_yields_what_it_can() -> None:
    entry = manifest_entry("truncated.wav")
    x = audio.load(fixture_path("truncated.wav"))
    assert abs(x.size - entry["samples"]) <= FRAME
    assert x.size < entry["header_samples"]
    clean = audio.load(fixture_path("clean_sentence.wav"))
    np.testing.assert_array_equal(x, clean[: x.size])


def test_zero_length_wav_yields_no_samples() -> None:
    assert list(audio.iter_blocks(fixture_path("zero_length.wav"))) == []
    x = audio.load(fixture_path("zero_length.wav"))
    assert x.size == 0 and x.dtype == np.float32


def test_to_int16_and_write_wav_round_trip(tmp_path: Path) -> None:
    x = np.array([0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0], np.float32)
    pcm = audio.to_int16(x)
    assert pcm.dtype == np.int16
    assert pcm.tolist() == [0, 16383, -16383, 32767, -32767, 32767, -32767]
    path = tmp_path / "t.wav"
    audio.write_wav(path, pcm, SAMPLE_RATE)
    back, rate = sf.read(path, dtype="int16")
    assert rate == SAMPLE_RATE and back.tolist() == pcm.tolist()
