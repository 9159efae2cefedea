"""The answer recordings for `coach interview --answers` agree with the manifest.

scripts/make_fixtures.py writes audio_fixtures/interview/answer_01.wav ... answer_08.wav: a
candidate for a junior data analyst role answering a mock interview, stage by stage, and
their manifest entries. The live endpointer ends an answer after about 0.8-1.2 s of silence,
so no silence inside an answer may reach 0.7 s. answer_03 and answer_06 are vague;
answer_04 and answer_07 give the specifics their follow-ups ask for; answer_08 is the
candidate's own question at the closing.
"""

from __future__ import annotations

import pytest
from conftest import (
    check_answer_recording,
    check_no_inner_silence,
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
    check_answer_recording(name, tuple(manifest_entry(name)["length_s"]))


@pytest.mark.parametrize("name", NAMES)
def test_no_silence_inside_an_answer_reaches_0_7_s(name: str) -> None:
    check_no_inner_silence(name)
