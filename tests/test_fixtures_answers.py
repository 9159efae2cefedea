"""The answer recordings for `coach rehearse --answers` agree with the manifest.

scripts/make_fixtures.py writes audio_fixtures/answers/answer_01.wav ... answer_06.wav and
their manifest entries. The live endpointer ends an answer after about 0.8-1.2 s of
silence, so no silence inside an answer may reach 0.7 s; answer_02 is the one dodge.
"""

from __future__ import annotations

import pytest
from conftest import (
    check_answer_recording,
    check_no_inner_silence,
    manifest,
    manifest_entry,
)

NAMES = [f"answers/answer_{i:02d}.wav" for i in range(1, 7)]


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
    length = (3.0, 5.0) if manifest_entry(name)["dodge"] else (5.0, 12.0)
    check_answer_recording(name, length)


@pytest.mark.parametrize("name", NAMES)
def test_no_silence_inside_an_answer_reaches_0_7_s(name: str) -> None:
    check_no_inner_silence(name)
