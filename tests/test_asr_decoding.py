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


def test_pieces_are_cut_at_pauses_and_each_primed() -> None:
    class _Sized(_FakeModel):
        def transcribe(self, audio, **kwargs):  # type: ignore[no-untyped-def]
            self.calls.append({**kwargs, "seconds": audio.size / SAMPLE_RATE})
            word = SimpleNamespace(word=" hi", start=0.1, end=0.4, probability=0.9)
            return iter([SimpleNamespace(words=[word])]), None

    model = _Sized()
    t = Transcriber(model, AsrOptions(prompt_chunk_s=10.0, region_pad_s=0.0), "fake")
    y = np.zeros(40 * SAMPLE_RATE, np.float32)
    # voiced 0-4, 5-9, 12-16 s (12 s joined: a cut before the third), then 20-34 s (longer
    # than a piece, with no pause: kept whole)
    words = t.transcribe(y, regions=[(0.0, 4.0), (5.0, 9.0), (12.0, 16.0), (20.0, 34.0)])
    assert [round(c["seconds"], 2) for c in model.calls] == [8.0, 4.0, 14.0]
    assert all(c["initial_prompt"] == DISFLUENT_PROMPT for c in model.calls)
    # each piece's word at 0.1 s into the piece, mapped back to the recording's time
    assert [w.start_s for w in words] == [0.1, 12.1, 20.1]
    # None: the voiced audio is one piece
    model.calls.clear()
    Transcriber(model, AsrOptions(prompt_chunk_s=None, region_pad_s=0.0), "fake").transcribe(
        y, regions=[(0.0, 4.0), (5.0, 9.0), (12.0, 16.0), (20.0, 34.0)]
    )
    assert [round(c["seconds"], 2) for c in model.calls] == [26.0]


def test_pieces_are_dealt_to_the_workers_in_turn_and_their_words_kept_in_order() -> None:
    import threading

    class _Named(_FakeModel):
        """Hears one word named after itself and the piece's length; its first call waits
        until the other worker's has begun."""

        def __init__(self, name: str) -> None:
            super().__init__()
            self.name, self.threads = name, set()

        def transcribe(self, audio, **kwargs):  # type: ignore[no-untyped-def]
            self.threads.add(threading.get_ident())
            if both.parties == 2 and not self.calls:
                both.wait()  # a worker alone would wait for 5 s and break the barrier
            self.calls.append(audio.size / SAMPLE_RATE)
            text = f" {self.name}{audio.size // SAMPLE_RATE}"
            word = SimpleNamespace(word=text, start=0.1, end=0.4, probability=0.9)
            return iter([SimpleNamespace(words=[word])]), None

    both = threading.Barrier(2, timeout=5.0)
    a, b = _Named("a"), _Named("b")
    t = Transcriber(a, AsrOptions(prompt_chunk_s=5.0, region_pad_s=0.0), "fake", [b])
    y = np.zeros(60 * SAMPLE_RATE, np.float32)
    # five pieces of 8, 4, 6, 3 and 9 s (no two fit in 5 s)
    regions = [(0.0, 8.0), (10.0, 14.0), (20.0, 26.0), (30.0, 33.0), (40.0, 49.0)]
    words = t.transcribe(y, regions=regions)
    assert [w.text for w in words] == ["a8", "b4", "a6", "b3", "a9"]
    assert [w.start_s for w in words] == [0.1, 10.1, 20.1, 30.1, 40.1]
    assert a.calls == [8.0, 6.0, 9.0] and b.calls == [4.0, 3.0]
    assert len(a.threads | b.threads) == 2  # one thread each, at once
    # one piece: the first worker alone, in the calling thread
    both = threading.Barrier(1)
    a.calls.clear(), b.calls.clear(), a.threads.clear()
    assert [w.text for w in t.transcribe(y, regions=[(0.0, 8.0)])] == ["a8"]
    assert a.threads == {threading.get_ident()} and b.calls == []


def test_a_worker_that_fails_stops_the_others_after_their_current_piece() -> None:
    import threading

    started = threading.Event()

    class _Fails(_FakeModel):
        def transcribe(self, audio, **kwargs):  # type: ignore[no-untyped-def]
            started.wait(5.0)  # the other worker is recognising its first piece
            raise RuntimeError("model broke")

    class _Slow(_FakeModel):
        def transcribe(self, audio, **kwargs):  # type: ignore[no-untyped-def]
            started.set()
            threading.Event().wait(0.3)
            return super().transcribe(audio, **kwargs)  # notes the call

    slow = _Slow()
    t = Transcriber(_Fails(), AsrOptions(prompt_chunk_s=5.0, region_pad_s=0.0), "fake", [slow])
    regions = [(float(10 * i), 10 * i + 8.0) for i in range(10)]  # ten pieces, five each
    with pytest.raises(RuntimeError, match="model broke"):
        t.transcribe(np.zeros(100 * SAMPLE_RATE, np.float32), regions=regions)
    assert len(slow.calls) == 1  # its first piece finished, none of the four after it began


def test_a_piece_whisper_ends_early_is_recognised_on_from_its_last_word() -> None:
    class _Stops(_FakeModel):
        """Hears one word 0.5-3.0 s into whatever it is given, then takes the rest for
        silence (as Whisper may after a sentence)."""

        def transcribe(self, audio, **kwargs):  # type: ignore[no-untyped-def]
            self.calls.append({**kwargs, "seconds": audio.size / SAMPLE_RATE})
            if audio.size < 3 * SAMPLE_RATE:
                return iter([]), None
            word = SimpleNamespace(word=" so", start=0.5, end=3.0, probability=0.9)
            return iter([SimpleNamespace(words=[word])]), None

    model = _Stops()
    t = Transcriber(model, AsrOptions(prompt_chunk_s=20.0, region_pad_s=0.0), "fake")
    words = t.transcribe(np.zeros(20 * SAMPLE_RATE, np.float32), regions=[(2.0, 12.0)])
    # 10 s: heard to 3 s, then the 7 s left from there, then the 4 s left, then 1 s: too
    # little to recognise again
    assert [round(c["seconds"], 2) for c in model.calls] == [10.0, 7.0, 4.0]
    assert [w.start_s for w in words] == [2.5, 5.5, 8.5]
    assert all(c["initial_prompt"] == DISFLUENT_PROMPT for c in model.calls)


_TS = 50364  # tiny.en's first timestamp token (<|0.00|>); text tokens are below it


def _ts(seconds: float) -> int:
    return _TS + round(seconds / 0.02)


def _split_by(last_window_ends: bool, tokens: list[int], *, segment_size: int):  # type: ignore[no-untyped-def]
    """faster-whisper's own split of one window's tokens (no model loaded), through the
    class coach loads."""
    from coach.asr import _whisper_class

    model = object.__new__(_whisper_class(last_window_ends))
    model.time_precision, model.input_stride = 0.02, 2
    model.feature_extractor = SimpleNamespace(nb_max_frames=3000)
    return model._split_segments_by_timestamps(
        tokenizer=SimpleNamespace(timestamp_begin=_TS), tokens=tokens, time_offset=1.0,
        segment_size=segment_size, segment_duration=segment_size / 100, seek=100,
    )  # fmt: skip


def test_the_last_window_keeps_the_words_after_its_last_timestamp() -> None:
    """ "<|0.00|> a b <|5.00|><|5.00|> c d" then the end: faster-whisper drops "c d" as
    cut off by the window and seeks to 5 s for another window. When the window is the
    last of the audio (shorter than 30 s), coach keeps "c d" and ends there."""
    tokens = [_ts(0), 11, 12, _ts(5), _ts(5), 13, 14]
    segments, seek, single = _split_by(True, tokens, segment_size=1200)
    assert [s["tokens"] for s in segments] == [[_ts(0), 11, 12, _ts(5)], [_ts(5), 13, 14]]
    assert [(s["start"], s["end"]) for s in segments] == [(1.0, 6.0), (6.0, 13.0)]
    assert (seek, single) == (1300, True)
    # faster-whisper's own class: "c d" dropped, seek at 5 s for a window of its own
    segments, seek, single = _split_by(False, tokens, segment_size=1200)
    assert [s["tokens"] for s in segments] == [[_ts(0), 11, 12, _ts(5)]]
    assert (seek, single) == (100 + 500, False)  # 5 s = 500 frames on


def test_a_full_window_is_split_as_faster_whisper_splits_it() -> None:
    """A 30 s window may be cut mid-word by the window's edge: nothing changes there."""
    tokens = [_ts(0), 11, 12, _ts(5), _ts(5), 13, 14]
    assert _split_by(True, tokens, segment_size=3000) == _split_by(False, tokens, segment_size=3000)


def test_a_last_window_ending_on_a_bare_timestamp_pair_ends_with_no_empty_segment() -> None:
    tokens = [_ts(0), 11, 12, _ts(5), _ts(5)]
    segments, seek, single = _split_by(True, tokens, segment_size=1200)
    assert [s["tokens"] for s in segments] == [[_ts(0), 11, 12, _ts(5)]]
    assert (seek, single) == (1300, True)
    # no timestamps at all: one segment of every token, as faster-whisper makes it
    segments, seek, single = _split_by(True, [11, 12], segment_size=1200)
    assert [s["tokens"] for s in segments] == [[11, 12]] and (seek, single) == (1300, True)


def _windows(last_window_ends: bool, y: np.ndarray, regions: list) -> tuple[int, int]:
    """(encoder passes, pieces) of one transcription with the real model."""
    t = Transcriber.load(AsrOptions(last_window_ends=last_window_ends))
    seen = {"encode": 0, "transcribe": 0}

    def counted(name: str, call):  # type: ignore[no-untyped-def]
        def wrapper(*a, **k):  # type: ignore[no-untyped-def]
            seen[name] += 1
            return call(*a, **k)

        return wrapper

    t._model.encode = counted("encode", t._model.encode)
    t._model.transcribe = counted("transcribe", t._model.transcribe)
    assert len(t.transcribe(y, regions=regions)) > 20
    return seen["encode"], seen["transcribe"]


@pytest.mark.models
def test_each_piece_is_one_window_of_the_encoder() -> None:
    """On the practice talk (pieces of at most 25 s), faster-whisper's own split spent a
    second encoder pass on most pieces for the fraction of a second after the last word."""
    from conftest import fixture_path

    from coach import audio
    from coach.vad import speech_regions

    y = audio.load(fixture_path("practice_talk.wav"))
    regions = speech_regions(y)[1]
    encodes, pieces = _windows(True, y, regions)
    assert pieces >= 2 and encodes == pieces
    encodes, pieces = _windows(False, y, regions)
    assert encodes > pieces  # faster-whisper's own: a window more
