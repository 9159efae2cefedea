"""The answer recordings for `coach rehearse --answers` agree with the manifest.

scripts/make_fixtures.py writes audio_fixtures/answers/answer_01.wav ... answer_06.wav and
their manifest entries. The live endpointer ends an answer after about 0.8-1.2 s of
silence, so no silence inside an answer may reach 0.7 s; answer_02 is the one dodge.
"""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf
from conftest import (
    FRAME,
    SILENCE_DB,
    fixture_path,
    frame_db,
    longest_run,
    manifest,
    manifest_entry,
)

NAMES = [f"answers/answer_{i:02d}.wav" for i in range(1, 7)]
MAX_SILENCE_S = 0.7
"""No stretch of silence inside an answer may last this long."""


def test_manifest_lists_the_six_answers_in_order() -> None:
    listing = manifest()
    assert listing["answers"] == NAMES
    for name in NAMES:
        assert listing["fixtures"][name]["file"] == name


def test_exactly_one_dodge_and_it_is_answer_02() -> None:
    dodges = [name for name in NAMES if manifest_entry(name)["dodge"]]
    assert dodges == ["answers/answer_02.wav"]
    assert all(isinstance(manifest_entry(name)["dodge"], bool) for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_answer_file_matches_manifest(name: str) -> None:
    entry = manifest_entry(name)
    path = fixture_path(name)
    info = sf.info(str(path))
    assert info.samplerate == 16000 == entry["sample_rate_hz"]
    assert info.channels == 1 == entry["channels"]
    assert info.subtype == "PCM_16"
    assert info.frames == entry["samples"]
    assert abs(info.duration - entry["duration_s"]) <= 0.01
    low, high = (3.0, 5.0) if entry["dodge"] else (5.0, 12.0)
    assert low <= info.duration <= high
    # the segments tile the clip and hold the text
    segs = entry["segments"]
    assert segs[0]["position"] == "lead" and segs[0]["duration_s"] == pytest.approx(0.5)
    assert segs[-1]["position"] == "tail" and segs[-1]["duration_s"] >= 0.6
    assert sum(s["duration_s"] for s in segs) == pytest.approx(entry["duration_s"], abs=1e-4)
    spoken = [s["text"] for s in segs if s["kind"] != "silence"]
    assert " ".join(spoken) == entry["text"]
    lexical = sum(s["tokens"] for s in segs if s["kind"] == "speech")
    assert lexical == entry["expected"]["lexical_words"]


@pytest.mark.parametrize("name", NAMES)
def test_no_silence_inside_an_answer_reaches_0_7_s(name: str) -> None:
    entry = manifest_entry(name)
    x, rate = sf.read(str(fixture_path(name)), dtype="float64")
    assert rate == 16000
    db = frame_db(x)
    loud = np.flatnonzero(db > SILENCE_DB)
    first, last = int(loud[0]), int(loud[-1]) + 1
    # the lead and tail silences are there, and speech lies between them
    assert first * FRAME / rate >= 0.5 - 1e-9
    assert (db.size - last) * FRAME / rate >= 0.6 - 1e-9
    longest = longest_run(db[first:last] <= SILENCE_DB) * FRAME / rate
    assert longest < MAX_SILENCE_S, f"{name}: {longest:.2f} s of silence inside the answer"
    inner = [s for s in entry["segments"][1:-1] if s["kind"] == "silence"]
    assert all(s["duration_s"] < MAX_SILENCE_S for s in inner)
