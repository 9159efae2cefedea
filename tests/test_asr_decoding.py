"""What Transcriber asks of faster-whisper: options passed through, retries seeded."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from coach import SAMPLE_RATE
from coach.asr import DISFLUENT_PROMPT, AsrOptions, Transcriber


class _FakeModel:
    def __init__(self) -> None:
        self.calls: list[dict] = []

    def transcribe(self, audio, **kwargs):  # type: ignore[no-untyped-def]
        self.calls.append(kwargs)
        word = SimpleNamespace(word=" hello", start=0.1, end=0.4, probability=0.9)
        return iter([SimpleNamespace(words=[word])]), None


def test_transcribe_passes_the_retry_and_length_options() -> None:
    model = _FakeModel()
    t = Transcriber(model, AsrOptions(), "fake")
    words = t.transcribe(np.zeros(SAMPLE_RATE, np.float32), offset_s=2.0)
    assert [(w.text, w.start_s) for w in words] == [("hello", 2.1)]
    kw = model.calls[0]
    assert kw["best_of"] == 1 and kw["max_new_tokens"] == 224
    assert kw["temperature"] == [0.0, 0.5] and kw["beam_size"] == 1


def test_seed_is_set_before_each_call(monkeypatch: pytest.MonkeyPatch) -> None:
    import ctranslate2

    seeds: list[int] = []
    monkeypatch.setattr(ctranslate2, "set_random_seed", seeds.append)
    t = Transcriber(_FakeModel(), AsrOptions(seed=7), "fake")
    t.transcribe(np.zeros(SAMPLE_RATE, np.float32))
    t.transcribe(np.zeros(SAMPLE_RATE, np.float32))
    assert seeds == [7, 7]
    Transcriber(_FakeModel(), AsrOptions(seed=None), "fake").transcribe(
        np.zeros(SAMPLE_RATE, np.float32)
    )
    assert seeds == [7, 7]


_ONE_RUN = """
import json, sys
from dataclasses import replace
from coach import audio
from coach.asr import DISFLUENT_PROMPT, AsrOptions, Transcriber
t = Transcriber.load(replace(AsrOptions(), temperatures=(0.5,)))
print(json.dumps([w.text for w in t.transcribe(audio.load(sys.argv[1]))]))
"""


@pytest.mark.models
def test_a_new_process_gives_the_same_words_with_sampled_retries() -> None:
    import json
    import subprocess
    import sys

    from conftest import fixture_path

    # temperature 0.5 alone samples every window, so only the seed makes runs agree
    path = str(fixture_path("practice_talk.wav"))
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", _ONE_RUN, path], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(2)
    ]
    assert runs[0] and runs[0] == runs[1]


def test_the_prompt_goes_to_every_window_as_hotwords() -> None:
    """faster-whisper's initial_prompt reaches only the first 30 s window when
    condition_on_previous_text is False; hotwords reach every window."""
    model = _FakeModel()
    audio = np.zeros(SAMPLE_RATE, np.float32)
    Transcriber(model, AsrOptions(prompt_every_window=True), "fake").transcribe(audio)
    Transcriber(model, AsrOptions(prompt_every_window=False), "fake").transcribe(audio)
    Transcriber(model, AsrOptions(initial_prompt="Um, my own.", prompt_every_window=True),
                "fake").transcribe(audio)  # fmt: skip
    Transcriber(model, AsrOptions(initial_prompt=None, prompt_every_window=True),
                "fake").transcribe(audio)  # fmt: skip
    got = [(kw["initial_prompt"], kw["hotwords"]) for kw in model.calls]
    assert got == [
        (None, DISFLUENT_PROMPT),
        (DISFLUENT_PROMPT, None),
        (None, "Um, my own."),
        (None, None),
    ]
    assert all(kw["condition_on_previous_text"] is False for kw in model.calls)
