"""The answer recordings for `coach rehearse --answers` agree with the manifest and with
the generator that wrote both.

scripts/make_fixtures.py writes audio_fixtures/answers/answer_NN.wav, one per entry of its
``ANSWERS``, and their manifest entries. The live endpointer ends an answer after about
0.8-1.2 s of silence, so no silence inside an answer may reach the generator's
``ANSWER_MAX_SILENCE_S``.
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

ANSWERS = generator().ANSWERS
NAMES = [f"answers/answer_{i:02d}.wav" for i in range(1, len(ANSWERS) + 1)]


def test_manifest_lists_the_generators_answers_in_order() -> None:
    listing = manifest()
    assert listing["answers"] == NAMES
    for name in NAMES:
        assert listing["fixtures"][name]["file"] == name


def test_dodges_are_the_generators() -> None:
    assert [manifest_entry(name)["dodge"] for name in NAMES] == [a.dodge for a in ANSWERS]
    assert all(isinstance(manifest_entry(name)["dodge"], bool) for name in NAMES)
    assert any(a.dodge for a in ANSWERS) and not all(a.dodge for a in ANSWERS)


@pytest.mark.parametrize("name", NAMES)
def test_answer_file_matches_manifest(name: str) -> None:
    length = (3.0, 5.0) if manifest_entry(name)["dodge"] else (5.0, 12.0)
    check_answer_recording(name, length)


@pytest.mark.parametrize("name", NAMES)
def test_no_long_silence_inside_an_answer(name: str) -> None:
    check_no_inner_silence(name)
