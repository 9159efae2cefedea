"""The answer recordings for `coach interview --answers` agree with the manifest.

scripts/make_fixtures.py writes audio_fixtures/interview/answer_01.wav ... answer_08.wav: a
candidate for a junior data analyst role answering a mock interview, stage by stage, and
their manifest entries. The live endpointer ends an answer after about 0.8-1.2 s of silence,
so no silence inside an answer may reach 0.7 s. answer_03 and answer_06 are vague;
answer_04 and answer_07 give the specifics their follow-ups ask for; answer_08 is the
candidate's own question at the closing.
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

from coach.interview import STAGES

NAMES = [f"interview/answer_{i:02d}.wav" for i in range(1, 9)]
EXPECTED_STAGES = [
    "opener",
    "behavioral",
    "behavioral",
    "behavioral",
    "technical",
    "behavioral",
    "behavioral",
    "closing",
]
EXPECTED_VAGUE = [False, False, True, False, False, True, False, False]
EXPECTED_FOLLOWS_UP = [None, None, None, 2, None, None, 5, None]
"""0-based index in ``interview_answers`` of the answer each one follows up."""
STAR_PARTS = ("situation", "task", "action", "result")
MAX_SILENCE_S = 0.7
"""No stretch of silence inside an answer may last this long."""
PAUSE_RANGE_S = (0.3, 0.6)
"""Silences between phrases (joins around a filled pause aside) last this long."""


def test_manifest_lists_the_eight_answers_in_order() -> None:
    listing = manifest()
    assert listing["interview_answers"] == NAMES
    for name in NAMES:
        assert listing["fixtures"][name]["file"] == name


def test_stages_and_vague_flags_are_as_written() -> None:
    assert [manifest_entry(name)["stage"] for name in NAMES] == EXPECTED_STAGES
    assert set(EXPECTED_STAGES) <= set(STAGES)
    assert [manifest_entry(name)["vague"] for name in NAMES] == EXPECTED_VAGUE
    assert all(isinstance(manifest_entry(name)["vague"], bool) for name in NAMES)
    hypothetical = [name for name in NAMES if manifest_entry(name)["hypothetical"]]
    assert hypothetical == ["interview/answer_06.wav"]


def test_exactly_one_closing_answer_and_it_asks_a_question() -> None:
    closing = [name for name in NAMES if manifest_entry(name)["stage"] == "closing"]
    assert closing == ["interview/answer_08.wav"]
    assert manifest_entry(closing[0])["text"].rstrip().endswith("?")
    assert not any(manifest_entry(name)["text"].rstrip().endswith("?") for name in NAMES[:-1])


def test_follow_ups_answer_the_vague_answers() -> None:
    entries = [manifest_entry(name) for name in NAMES]
    assert [e["follows_up"] for e in entries] == EXPECTED_FOLLOWS_UP
    for e in entries:
        if e["follows_up"] is not None:
            before = entries[e["follows_up"]]
            assert before["vague"] and not e["vague"]
            assert before["stage"] == e["stage"]


def test_star_labels() -> None:
    for name in NAMES:
        entry = manifest_entry(name)
        star = entry["star"]
        assert list(star) == list(STAR_PARTS)
        assert all(isinstance(v, bool) for v in star.values())
        assert entry["expected"]["star_parts"] == sum(star.values())
        if entry["vague"]:
            assert not any(star.values()), f"{name}: a vague answer tells no story"
        elif entry["stage"] == "behavioral":
            assert star["action"] and star["result"], f"{name}: a specific story has both"
    assert all(manifest_entry("interview/answer_02.wav")["star"].values())


def test_two_answers_hold_one_filled_pause_each() -> None:
    counts = {
        name: sum(manifest_entry(name)["expected"]["filled_pauses"].values()) for name in NAMES
    }
    assert sorted(counts.values()) == [0] * 6 + [1] * 2


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
    low, high = entry["length_s"]
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
    low, high = PAUSE_RANGE_S
    assert all(low <= s["duration_s"] <= high for s in inner if s["position"] != "join")
