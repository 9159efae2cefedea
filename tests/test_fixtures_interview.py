"""The answer recordings for `coach interview --answers` agree with the manifest and with
the generator that wrote both.

scripts/make_fixtures.py writes audio_fixtures/interview/answer_NN.wav, one per entry of its
``INTERVIEW_ANSWERS`` (a candidate for a junior data analyst role answering a mock
interview, stage by stage), and their manifest entries. The manifest is checked against the
generator's own data, and that data against what coach expects of it (its stages and STAR
parts are coach's, a vague answer tells no story, a follow-up answers a vague answer of its
stage). The live endpointer ends an answer after about 0.8-1.2 s of silence, so no silence
inside an answer may reach the generator's ``ANSWER_MAX_SILENCE_S``.
"""

from __future__ import annotations

import pytest
from conftest import (
    check_answer_recording,
    check_no_inner_silence,
    generator,
    manifest,
    manifest_entry,
)

from coach.analysis.star import PARTS
from coach.interview import STAGES

GEN = generator()
ANSWERS = GEN.INTERVIEW_ANSWERS
NAMES = [f"interview/answer_{i:02d}.wav" for i in range(1, len(ANSWERS) + 1)]


def test_manifest_lists_the_generators_answers_in_order() -> None:
    listing = manifest()
    assert listing["interview_answers"] == NAMES
    for name in NAMES:
        assert listing["fixtures"][name]["file"] == name


def test_the_generator_speaks_coachs_stages_and_star_parts() -> None:
    assert tuple(GEN.STAR_PARTS) == tuple(PARTS)
    assert set(GEN.INTERVIEW_STAGES) <= set(STAGES)


def test_labels_are_the_generators() -> None:
    for name, answer in zip(NAMES, ANSWERS, strict=True):
        entry = manifest_entry(name)
        assert entry["stage"] == answer.stage, name
        assert entry["vague"] is answer.vague, name
        assert entry["hypothetical"] is answer.hypothetical, name
        assert entry["follows_up"] == answer.follows_up, name
        assert entry["star"] == {part: part in answer.star for part in PARTS}, name
        assert entry["expected"]["star_parts"] == len(set(answer.star)), name
        assert tuple(entry["length_s"]) == tuple(answer.length_s), name
        filled = sum(isinstance(item, GEN.Filled) for item in answer.items)
        assert sum(entry["expected"]["filled_pauses"].values()) == filled, name


def test_the_set_holds_what_the_interview_tests_need() -> None:
    stages = [a.stage for a in ANSWERS]
    assert stages[0] == "opener" and stages[-1] == "closing" and stages.count("closing") == 1
    assert any(a.vague for a in ANSWERS) and any(a.hypothetical for a in ANSWERS)
    assert manifest_entry(NAMES[-1])["text"].rstrip().endswith("?")  # the candidate asks
    assert not any(manifest_entry(name)["text"].rstrip().endswith("?") for name in NAMES[:-1])


def test_follow_ups_answer_vague_answers_of_their_stage() -> None:
    followed = [a for a in ANSWERS if a.follows_up is not None]
    assert followed
    for answer in followed:
        before = ANSWERS[answer.follows_up]
        assert before.vague and not answer.vague
        assert before.stage == answer.stage


def test_star_labels_fit_the_answers() -> None:
    for name, answer in zip(NAMES, ANSWERS, strict=True):
        if answer.vague:
            assert not answer.star, f"{name}: a vague answer tells no story"
        elif answer.stage == "behavioral":
            assert {"action", "result"} <= set(answer.star), f"{name}: a story has both"


@pytest.mark.parametrize("name", NAMES)
def test_answer_file_matches_manifest(name: str) -> None:
    check_answer_recording(name, tuple(manifest_entry(name)["length_s"]))


@pytest.mark.parametrize("name", NAMES)
def test_no_long_silence_inside_an_answer(name: str) -> None:
    check_no_inner_silence(name)
