"""Speech output: sentence splitting, voice loading, Piper synthesis and the sinks.

The splitter and the streaming logic run on a fake voice; tests marked ``models`` use the
real default voice en_US-joe-medium (`make models` fetches it).
"""

from __future__ import annotations

import json
import sys
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf
from helpers import FakeVoice

from coach import models
from coach.errors import AudioError, ModelError, OptionsError
from coach.sinks import NoOutputDevice, SpeakerSink, TextSink, WavSink, open_sink
from coach.tts import (
    Speaker,
    SpeechChunk,
    TtsOptions,
    prefetch,
    resolve_voice,
    split_sentences,
)

# --- split_sentences --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("buffer", "sentences", "remainder"),
    [
        ("Hello there. How are you", ["Hello there."], "How are you"),
        ("Why? Because! Fine. ", ["Why?", "Because!", "Fine."], ""),
        ("Really?! Yes. ", ["Really?!", "Yes."], ""),
        ("It costs 3.5 dollars. Next", ["It costs 3.5 dollars."], "Next"),
        ("Pi is 3.14159 or so", [], "Pi is 3.14159 or so"),
        ("Ask Dr. Lee about it. Then go", ["Ask Dr. Lee about it."], "Then go"),
        ("Mr. and Mrs. Smith came. ", ["Mr. and Mrs. Smith came."], ""),
        ("Use a tool, e.g. a hammer. Or not", ["Use a tool, e.g. a hammer."], "Or not"),
        ("Fruit, i.e. apples, e.g., are fine. ", ["Fruit, i.e. apples, e.g., are fine."], ""),
        ("Read J. Smith first. ", ["Read J. Smith first."], ""),
        ("We met at 5 p.m. yesterday. ", ["We met at 5 p.m. yesterday."], ""),
        ("We met at 5 p.m. Then we left. ", ["We met at 5 p.m.", "Then we left."], ""),
        ("Bread, milk, etc. and so on. ", ["Bread, milk, etc. and so on."], ""),
        ('He said "stop." Then ran', ['He said "stop."'], "Then ran"),
        ("Well... I think so. ", ["Well...", "I think so."], ""),
        ("First line\nSecond line", ["First line"], "Second line"),
        (
            "Two things:\n1. Why now? 2. Who pays? ",
            ["Two things:", "1. Why now?", "2. Who pays?"],
            "",
        ),
        ("It began in 2023. Then ", ["It began in 2023."], "Then "),
        ("No end yet", [], "No end yet"),
        ("Ends at the buffer end.", [], "Ends at the buffer end."),
        ("", [], ""),
        ("   ", [], ""),
    ],
)
def test_split_sentences(buffer: str, sentences: list[str], remainder: str) -> None:
    assert split_sentences(buffer) == (sentences, remainder)


def test_split_sentences_waits_for_what_follows_an_ambiguous_period() -> None:
    # "p.m. " may or may not end the sentence: the next word decides, so wait for it.
    assert split_sentences("Done. We met at 5 p.m. ") == (["Done."], "We met at 5 p.m. ")
    # "costs 3." may become "3.5": a period at the very end is never a boundary yet.
    assert split_sentences("It costs 3.") == ([], "It costs 3.")


# --- a fake voice for the streaming logic -----------------------------------------------------


def fake_speaker(silence_s: float = 0.1, log: list[str] | None = None) -> Speaker:
    return Speaker(FakeVoice(log), TtsOptions(sentence_silence_s=silence_s))


def test_speak_stream_speaks_each_sentence_as_soon_as_it_is_complete() -> None:
    log: list[str] = []
    pieces = ["Hel", "lo the", "re. Ho", "w is Dr", ". Lee", "? I", " paid 3", ".5 euros", " ok"]

    def tokens() -> Iterator[str]:
        for p in pieces:
            log.append(f"token:{p}")
            yield p

    speaker = fake_speaker(log=log)
    chunks = []
    for chunk in speaker.speak_stream(tokens()):
        log.append(f"chunk:{chunk.text}")
        chunks.append(chunk)

    assert [c.text for c in chunks] == ["Hello there.", "How is Dr. Lee?", "I paid 3.5 euros ok"]
    # The first sentence is spoken once the token after its period arrives, before the rest.
    assert log.index("chunk:Hello there.") < log.index("token:w is Dr")
    assert log.index("chunk:How is Dr. Lee?") < log.index("token: paid 3")
    # Titles lose their period before Piper so espeak does not end a sentence there.
    assert speaker._voice.spoken[1] == "How is Dr Lee?"


def test_speak_stream_chunk_timing_and_samples() -> None:
    chunks = list(fake_speaker(silence_s=0.1).speak_stream(["Hi. ", "Yes!"]))
    assert [c.text for c in chunks] == ["Hi.", "Yes!"]
    first, second = chunks
    assert first.samples.dtype == np.int16 and first.sample_rate_hz == 1000
    assert first.samples.size == 30 + 100  # 10 samples per character + 0.1 s of silence
    assert not first.samples[30:].any() and (first.samples[:30] == 16383).all()
    assert first.start_s == 0.0 and first.duration_s == pytest.approx(0.13)
    assert second.start_s == pytest.approx(first.end_s)


def test_speak_splits_text_and_skips_empty_or_unspeakable() -> None:
    speaker = fake_speaker()
    assert [c.text for c in speaker.speak("One. Two? Three")] == ["One.", "Two?", "Three"]
    assert list(speaker.speak("")) == []
    assert list(speaker.speak("  \n ")) == []
    assert list(speaker.speak_stream(["", " ", "..."])) == []
    assert speaker._voice.spoken == ["One.", "Two?", "Three"]


def test_prefetch_keeps_order_and_runs_ahead() -> None:
    speaker = fake_speaker()
    voice = speaker._voice
    stream = prefetch(speaker.speak("One. Two. Three."), depth=1)
    first = next(stream)
    assert first.text == "One."
    deadline = time.monotonic() + 60  # a bound for a broken prefetch, not a speed
    while len(voice.spoken) < 2 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert voice.spoken[:2] == ["One.", "Two."]  # made while "One." was being played
    assert [c.text for c in stream] == ["Two.", "Three."]


def test_prefetch_raises_the_producers_error_and_stops_early() -> None:
    def broken() -> Iterator[SpeechChunk]:
        yield chunk("Fine.", 10)
        raise ModelError("voice broke")

    stream = prefetch(broken())
    assert next(stream).text == "Fine."
    with pytest.raises(ModelError, match="voice broke"):
        next(stream)

    closed = threading.Event()

    def endless() -> Iterator[SpeechChunk]:
        try:
            while True:
                yield chunk("Again.", 10)
        finally:
            closed.set()

    stream = prefetch(endless(), depth=1)
    next(stream)
    stream.close()  # the caller stops listening: the producer stops too
    assert closed.wait(60)
    with pytest.raises(OptionsError):
        next(prefetch([], depth=0))


def test_tts_options_validation() -> None:
    with pytest.raises(OptionsError, match="length_scale"):
        TtsOptions(length_scale=0)
    with pytest.raises(OptionsError, match="noise_scale"):
        TtsOptions(noise_scale=-1)
    with pytest.raises(OptionsError, match="sentence_silence_s"):
        TtsOptions(sentence_silence_s=-0.1)
    with pytest.raises(OptionsError, match="threads -1"):
        TtsOptions(threads=-1)


# --- loading errors -------------------------------------------------------------------------


def test_missing_manifest_voice_says_how_to_fetch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COACH_MODELS_DIR", str(tmp_path))
    with pytest.raises(ModelError, match="coach models fetch en_US-joe-medium"):
        Speaker.load(TtsOptions(voice="en_US-joe-medium"))


def test_unknown_voice_name() -> None:
    with pytest.raises(ModelError, match="unknown model 'no-such-voice'"):
        Speaker.load(TtsOptions(voice="no-such-voice"))


def test_nonexistent_voice_path(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="pass the .onnx with its .onnx.json beside it"):
        Speaker.load(TtsOptions(voice=str(tmp_path / "nothing.onnx")))


def test_voice_without_its_json(tmp_path: Path) -> None:
    onnx = tmp_path / "voice.onnx"
    onnx.write_bytes(b"x")
    with pytest.raises(ModelError, match=r"voice\.onnx\.json is missing.*beside it"):
        resolve_voice(str(onnx))


def _minimal_config() -> dict[str, object]:
    return {
        "num_symbols": 3,
        "num_speakers": 1,
        "audio": {"sample_rate": 22050},
        "espeak": {"voice": "en-us"},
        "phoneme_id_map": {"_": [0], "^": [1], "$": [2]},
    }


def test_garbage_onnx_gives_one_line_model_error(tmp_path: Path) -> None:
    onnx = tmp_path / "broken.onnx"
    onnx.write_bytes(b"this is not an onnx model\n" * 20)
    onnx.with_name("broken.onnx.json").write_text(json.dumps(_minimal_config()))
    with pytest.raises(ModelError) as info:
        Speaker.load(TtsOptions(voice=str(onnx)))
    message = str(info.value)
    assert "\n" not in message
    assert "cannot load Piper voice" in message and "broken.onnx" in message


def test_garbage_json_gives_one_line_model_error(tmp_path: Path) -> None:
    onnx = tmp_path / "broken.onnx"
    onnx.write_bytes(b"x")
    onnx.with_name("broken.onnx.json").write_text("{not json")
    with pytest.raises(ModelError) as info:
        Speaker.load(TtsOptions(voice=str(onnx)))
    assert "\n" not in str(info.value)


# --- the real default voice -------------------------------------------------------------------


@pytest.fixture(scope="module")
def joe() -> Speaker:
    try:
        return Speaker.load(TtsOptions(deterministic=True))
    except ModelError as exc:
        pytest.fail(f"{exc} (run `make models`)")


@pytest.mark.models
def test_voice_resolves_by_name_and_path() -> None:
    folder = models.installed_path("en_US-joe-medium", kind="tts")
    onnx = folder / "en_US-joe-medium.onnx"
    assert resolve_voice("en_US-joe-medium") == onnx
    assert resolve_voice(str(onnx)) == onnx
    assert resolve_voice(str(folder)) == onnx


@pytest.mark.models
def test_real_voice_speaks_two_sentences_as_two_chunks(joe: Speaker) -> None:
    chunks = list(joe.speak("Good morning. Any questions?"))
    assert [c.text for c in chunks] == ["Good morning.", "Any questions?"]
    assert joe.sample_rate_hz == 22050
    for c in chunks:
        assert c.sample_rate_hz == 22050
        assert c.samples.dtype == np.int16 and c.samples.ndim == 1
        assert c.duration_s > 0.4
        assert np.abs(c.samples.astype(np.int32)).max() > 10000  # speech, not silence
        tail = c.samples[-round(0.2 * 22050) :]
        assert not tail.any()  # ends with the 0.2 s sentence silence
    assert chunks[0].start_s == 0.0
    assert chunks[1].start_s == pytest.approx(chunks[0].end_s)


@pytest.mark.models
def test_a_voice_on_one_thread_sleeps_between_runs_and_says_the_same(joe: Speaker) -> None:
    one = Speaker.load(TtsOptions(deterministic=True, threads=1))
    made = one._voice.session.get_session_options()
    assert made.intra_op_num_threads == 1
    assert made.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    a = np.concatenate([c.samples for c in one.speak("Why now?")]).astype(float)
    b = np.concatenate([c.samples for c in joe.speak("Why now?")]).astype(float)
    assert len(a) == len(b) and np.abs(a - b).max() <= 64  # threads change float sums only


@pytest.mark.models
def test_real_voice_is_reproducible_when_deterministic(joe: Speaker) -> None:
    a = [c.samples for c in joe.speak("Why now?")]
    b = [c.samples for c in joe.speak("Why now?")]
    assert len(a) == len(b) == 1
    assert np.array_equal(a[0], b[0])


@pytest.mark.models
def test_wav_sink_writes_what_was_spoken(joe: Speaker, tmp_path: Path) -> None:
    chunks = list(joe.speak("Hello. Go on!"))
    times = iter([10.0, 10.1])
    out = tmp_path / "speech.wav"
    with WavSink(out, clock=lambda: next(times)) as sink:
        # the second chunk is heard when the first has played, as from a speaker
        heard = [sink.play(c) for c in chunks]
        assert heard == [10.0, pytest.approx(10.0 + chunks[0].duration_s)]
    info = sf.info(str(out))
    assert info.samplerate == 22050 and info.channels == 1 and info.subtype == "PCM_16"
    assert info.frames == sum(c.samples.size for c in chunks)
    assert info.duration == pytest.approx(sum(c.duration_s for c in chunks))
    assert sink.segments == [
        (c.text, pytest.approx(c.start_s), pytest.approx(c.end_s)) for c in chunks
    ]
    data, _ = sf.read(str(out), dtype="int16")
    assert np.array_equal(data, np.concatenate([c.samples for c in chunks]))


# --- sinks without a voice ------------------------------------------------------------------


def chunk(text: str, n: int, rate: int = 22050, start_s: float = 0.0) -> SpeechChunk:
    t = np.arange(n) / rate
    samples = (np.sin(2 * np.pi * 220 * t) * 10000).astype(np.int16)
    return SpeechChunk(text, samples, rate, start_s)


def test_wav_sink_is_readable_after_each_chunk_and_resamples(tmp_path: Path) -> None:
    out = tmp_path / "s.wav"
    sink = WavSink(out)
    sink.play(chunk("One.", 22050))
    assert sf.info(str(out)).frames == 22050  # flushed: readable before close
    sink.play(chunk("Two.", 8000, rate=16000))  # 0.5 s at 16 kHz -> 11025 frames at 22.05 kHz
    assert sf.info(str(out)).frames == 22050 + 11025
    sink.close()
    sink.close()  # twice is fine
    assert sink.segments == [("One.", 0.0, 1.0), ("Two.", 1.0, 1.5)]
    with pytest.raises(AudioError, match="closed"):
        sink.play(chunk("Three.", 10))


def test_wav_sink_drains_like_a_speaker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """drain() waits until the audio written so far would have been heard."""
    import coach.sinks as sinks

    slept: list[float] = []
    monkeypatch.setattr(sinks.time, "sleep", slept.append)
    now = [10.0]
    sink = WavSink(tmp_path / "s.wav", clock=lambda: now[0])
    sink.play(chunk("One.", 22050))  # 1 s, heard from 10.0 to 11.0
    sink.play(chunk("Two.", 11025))  # queued behind it: 11.0 to 11.5
    now[0] = 10.2
    sink.drain()
    assert slept == [pytest.approx(1.3)]
    now[0] = 12.0
    sink.drain()  # all heard already: no wait
    assert len(slept) == 1
    sink.close()


def test_wav_sink_errors_and_empty_file(tmp_path: Path) -> None:
    with pytest.raises(AudioError, match="does not exist"):
        WavSink(tmp_path / "no" / "such" / "dir.wav")
    with pytest.raises(AudioError, match="is a folder"):
        WavSink(tmp_path)
    empty = tmp_path / "empty.wav"
    WavSink(empty).close()
    assert sf.info(str(empty)).frames == 0


def test_speaker_sink_without_sounddevice_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sounddevice", None)  # import fails as if not installed
    with pytest.raises(NoOutputDevice, match="no audio output device.*--speak-to FILE.wav"):
        SpeakerSink()
    assert issubclass(NoOutputDevice, AudioError)


class _PortAudioError(Exception):
    pass


def fake_sounddevice(
    *, has_device: bool = True
) -> tuple[types.ModuleType, list[object], list[Any]]:
    """A stand-in sounddevice module recording what its OutputStream is asked to do; the
    streams it opened are in the third list (their ``callback`` pulls the audio)."""
    calls: list[object] = []
    streams: list[Any] = []
    sd = types.ModuleType("sounddevice")
    devices = [
        {"index": 0, "name": "Fake Mic", "max_input_channels": 1, "max_output_channels": 0},
        {"index": 1, "name": "Fake Out", "max_input_channels": 0, "max_output_channels": 2},
    ]

    def query_devices(device: object = None, kind: str | None = None) -> object:
        if not has_device:
            raise _PortAudioError("Error querying device -1")
        if device is None and kind is None:
            return devices
        return devices[1]

    class OutputStream:
        latency = 0.05

        def __init__(self, **kwargs: object) -> None:
            calls.append(("open", kwargs["samplerate"], kwargs["dtype"], kwargs["device"]))
            self.callback = kwargs["callback"]
            streams.append(self)

        def start(self) -> None:
            calls.append("start")

        def stop(self) -> None:
            calls.append("stop")

        def close(self) -> None:
            calls.append("close")

    sd.PortAudioError = _PortAudioError  # type: ignore[attr-defined]
    sd.query_devices = query_devices  # type: ignore[attr-defined]
    sd.default = types.SimpleNamespace(device=[0, 1])  # type: ignore[attr-defined]
    sd.OutputStream = OutputStream  # type: ignore[attr-defined]
    return sd, calls, streams


def pull(stream: Any, frames: int) -> np.ndarray:
    """What the device asks the stream's callback for next: ``frames`` samples."""
    out = np.full((frames, 1), 12345, np.int16)  # garbage the callback must overwrite
    stream.callback(out, frames, None, None)
    return out[:, 0].copy()


def test_speaker_sink_plays_from_a_queue_and_never_runs_dry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sd, calls, streams = fake_sounddevice()
    monkeypatch.setitem(sys.modules, "sounddevice", sd)
    hi, there = chunk("Hi.", 100), chunk("There.", 50)
    with SpeakerSink(clock=lambda: 2.0) as sink:
        assert sink.play(hi) == pytest.approx(2.05)  # + output latency
        # queued at once, it is heard when the first chunk has finished playing
        assert sink.play(there) == pytest.approx(2.05 + 100 / 22050)
        (stream,) = streams
        first = pull(stream, 120)  # across the two chunks
        assert np.array_equal(first, np.concatenate([hi.samples, there.samples[:20]]))
        second = pull(stream, 64)  # the rest, then silence, never a stall
        assert np.array_equal(second[:30], there.samples[20:]) and not second[30:].any()
        assert not pull(stream, 256).any()  # nothing queued: silence
        sink.play(chunk("Again.", 10, rate=16000))  # another rate is resampled, not reopened
        assert pull(stream, 40)[:10].any()
    assert calls == [("open", 22050, "int16", None), "start", "stop", "close"]


def test_speaker_sink_takes_an_index_as_digits_or_part_of_a_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sd, calls, _ = fake_sounddevice()
    monkeypatch.setitem(sys.modules, "sounddevice", sd)
    for spec in ("1", 1, "fake out", "out"):
        SpeakerSink(spec, sample_rate_hz=22050).close()
    assert [c[3] for c in calls if isinstance(c, tuple)] == [1, 1, 1, 1]
    with pytest.raises(NoOutputDevice, match="no output device matches 'hdmi'.*--speak-to"):
        SpeakerSink("hdmi")
    with pytest.raises(NoOutputDevice, match="no output device with index 0"):
        SpeakerSink("0")  # a microphone


def test_speaker_sink_without_output_device(monkeypatch: pytest.MonkeyPatch) -> None:
    sd, _, _ = fake_sounddevice(has_device=False)
    monkeypatch.setitem(sys.modules, "sounddevice", sd)
    with pytest.raises(NoOutputDevice, match="Error querying device -1"):
        SpeakerSink()


def test_open_sink_falls_back_to_text_with_one_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sounddevice", None)
    notices: list[str] = []
    printed: list[str] = []
    sink = open_sink(None, on_fallback=notices.append, console_print=printed.append)
    assert isinstance(sink, TextSink)
    with sink:
        sink.play(chunk("What is your main point?", 10))
        sink.play(chunk("Why?", 10))
    assert len(notices) == 1 and "--speak-to FILE.wav" in notices[0]
    assert printed == ["What is your main point?", "Why?"]


def test_open_sink_prefers_the_wav_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sounddevice", None)
    notices: list[str] = []
    sink = open_sink(tmp_path / "q.wav", on_fallback=notices.append, sample_rate_hz=22050)
    assert isinstance(sink, WavSink) and (tmp_path / "q.wav").is_file()
    sink.close()
    assert notices == []


def test_open_sink_uses_the_speaker_when_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    sd, _, _ = fake_sounddevice()
    monkeypatch.setitem(sys.modules, "sounddevice", sd)
    with open_sink(None, on_fallback=pytest.fail) as sink:
        assert isinstance(sink, SpeakerSink)
