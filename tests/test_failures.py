"""Failures of a thread, a device or a sink: one line on stderr, a non-zero exit code, no
traceback, and a session folder that stays readable; Ctrl-C does not wait for the LLM;
the LLM worker's queue is bounded; the recogniser and the LLM share the cores (no
models needed)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import soundfile as sf
from conftest import FIXTURES, ManifestTranscriber

from coach.asr import AsrOptions, Transcriber
from coach.cli import main
from coach.errors import AudioError
from coach.live.engine import Conversation, Worker
from coach.live.folder import SessionFolder
from coach.live.inputs import FileInput
from coach.live.models import Models, session_threads
from coach.llm import ChatModel, GenerationCancelled, LlmOptions
from coach.sinks import AudioSink, TeeSink, WavSink
from coach.tts import SpeechChunk

TALK = FIXTURES / "practice_talk.wav"
ANSWER = FIXTURES / "answers/answer_01.wav"


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


class BrokenTranscriber(ManifestTranscriber):
    """Transcribes nothing: its first call fails, as a crashed recogniser would."""

    def transcribe(self, samples: Any, *, regions: Any = None, offset_s: float = 0.0) -> list:
        raise RuntimeError("the recogniser ran out of memory")


class FailingSink(AudioSink):
    """An audio output that fails on the first sentence (a speaker unplugged)."""

    def play(self, chunk: SpeechChunk) -> float:
        raise AudioError("audio output failed on USB speaker: device unavailable")

    def drain(self) -> None:
        pass


def use_transcriber(monkeypatch: pytest.MonkeyPatch, transcriber: object) -> None:
    monkeypatch.setattr(Transcriber, "load", classmethod(lambda cls, options: transcriber))


def test_a_failing_recogniser_thread_is_one_line_and_the_talk_is_kept(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    use_transcriber(monkeypatch, BrokenTranscriber())
    save = tmp_path / "s"
    code = main(["rehearse", "--input", str(TALK), "--fast", "--questions", "0",
                 "--save", str(save), "--no-history"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1
    assert "live transcription failed: RuntimeError: the recogniser ran out" in one_line(err)
    report = json.loads((save / "report.json").read_text())
    assert report["status"] == "failed"
    assert any("ran out of memory" in n for n in report["notes"])
    assert sf.info(str(save / "talk.wav")).frames > 16000  # the recording so far, readable


def test_a_failing_audio_output_is_one_line_and_the_session_is_kept(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    use_transcriber(monkeypatch, ManifestTranscriber())
    monkeypatch.setattr("coach.sinks.open_sink", lambda *a, **k: FailingSink())
    save = tmp_path / "s"
    code = main(["rehearse", "--input", str(TALK), "--answers", str(ANSWER), "--fast",
                 "--questions", "1", "--save", str(save), "--no-history",
                 "--llm-model", str(tmp_path / "none.gguf"),
                 "--voice", str(tmp_path / "none.onnx")])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2  # AudioError's code
    assert "USB speaker" in one_line(err)
    report = json.loads((save / "report.json").read_text())
    assert report["status"] == "failed" and report["talk"]["word_count"] > 100
    assert (save / "report.html").is_file() and sf.info(str(save / "talk.wav")).frames
    assert sf.info(str(save / "audience.wav")).samplerate  # closed, a valid wav


def test_a_thread_failing_where_nothing_waits_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from coach.cli import _thread_failed

    def crash() -> None:
        raise ValueError("bad frame\nsecond line")

    old = threading.excepthook
    threading.excepthook = _thread_failed
    try:
        t = threading.Thread(target=crash, name="coach-test")
        t.start()
        t.join()
    finally:
        threading.excepthook = old
    assert one_line(capsys.readouterr().err) == "coach: coach-test failed: ValueError: bad frame"


# --- the LLM stops between tokens -------------------------------------------------------------


class SlowLlama:
    """llama-cpp-python's streaming chat API, one token every ``delay_s`` (400 tokens)."""

    def __init__(self, delay_s: float = 0.05) -> None:
        self.delay_s = delay_s
        self.tokens = 0

    def create_chat_completion(self, **kwargs: Any) -> Iterator[dict]:
        for _ in range(400):
            time.sleep(self.delay_s)
            self.tokens += 1
            yield {"choices": [{"delta": {"content": " word"}}]}


def slow_model() -> ChatModel:
    return ChatModel(SlowLlama(), LlmOptions(), Path("slow.gguf"))


def test_cancel_stops_a_generation_between_tokens() -> None:
    llm = slow_model()
    outcome: list[BaseException] = []

    def generate() -> None:
        try:
            llm.complete([{"role": "user", "content": "Ask me something."}])
        except GenerationCancelled as exc:
            outcome.append(exc)

    t = threading.Thread(target=generate)
    t.start()
    deadline = time.monotonic() + 60  # a bound for a stuck generator, not a speed
    while llm._llama.tokens < 3 and time.monotonic() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.01)
    llm.cancel()
    at_cancel = llm._llama.tokens  # type: ignore[attr-defined]
    t.join(timeout=60)
    assert not t.is_alive() and outcome
    # stopped at the next token (the one being made may finish), not after all 400
    assert llm._llama.tokens <= at_cancel + 1  # type: ignore[attr-defined]
    with pytest.raises(GenerationCancelled):
        llm.complete([])  # refused until resumed
    llm.resume()
    assert next(llm.stream([])) == " word"


class Busy(Conversation):
    """A session whose LLM is writing a long reply when Ctrl-C comes."""

    def _body(self) -> None:
        llm = self.models.llm()
        assert isinstance(llm, ChatModel)
        self._pool.submit(llm.complete, [{"role": "user", "content": "Go on."}])
        while llm._llama.tokens < 3:  # type: ignore[attr-defined]
            time.sleep(0.01)
        raise KeyboardInterrupt


def test_ctrl_c_ends_the_session_without_waiting_for_the_llm(tmp_path: Path) -> None:
    llm = slow_model()  # 400 tokens: 20 s unless stopped
    models = Models(AsrOptions(), None, None, transcriber=ManifestTranscriber(),  # type: ignore[arg-type]
                    chat=llm)  # fmt: skip
    folder = SessionFolder(tmp_path / "s")
    session = Busy(FileInput(None, []), models, WavSink(folder.file("audience.wav")), folder)
    res = session.run()
    assert res.status == "interrupted"
    # not waited for: far from the 400 tokens (20 s) of the whole reply, and cancelled, not
    # left running (at most the token being made when run() returned comes after it)
    stopped_at = llm._llama.tokens  # type: ignore[attr-defined]
    assert stopped_at < 200
    time.sleep(0.3)
    assert llm._llama.tokens <= stopped_at + 1  # type: ignore[attr-defined]
    assert json.loads((folder.path / "report.json").read_text())["status"] == "interrupted"
    assert next(llm.stream([])) == " word"  # usable again by the next session


# --- the worker's queue, the cores, the sinks -------------------------------------------------


def test_the_llm_worker_queue_is_bounded() -> None:
    worker = Worker(bound=2)
    release = threading.Event()
    worker.submit(release.wait)
    worker.submit(release.wait)
    submitted = threading.Event()

    def third() -> None:
        worker.submit(lambda: None)
        submitted.set()

    t = threading.Thread(target=third)
    t.start()
    assert not submitted.wait(0.3)  # full: the third job waits for a slot
    release.set()
    assert submitted.wait(60)  # a bound for a stuck queue, not a speed
    t.join()
    worker.shutdown(wait=True)


def test_the_llm_worker_is_idle_only_with_no_job_waiting_or_running() -> None:
    worker = Worker()
    assert worker.idle
    release = threading.Event()
    running = worker.submit(release.wait)
    waiting = worker.submit(lambda: None)
    assert not worker.idle
    release.set()
    running.result(timeout=60)
    waiting.result(timeout=60)
    for _ in range(600):  # the done callbacks run just after the results are set
        if worker.idle:
            break
        time.sleep(0.01)
    assert worker.idle
    worker.shutdown(wait=True)


@pytest.mark.models
def test_a_session_with_an_llm_gets_a_recogniser_with_every_core(monkeypatch) -> None:
    import os

    from coach.live.models import Models, live_asr_options

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    models = Models(live_asr_options(threads=1), None, None)
    models.wait()
    quick = models.quick_transcriber()
    assert quick is not None and quick.options.cpu_threads == 2
    assert quick.options.model == models.transcriber.options.model
    alone = Models(live_asr_options(threads=2), None, None)  # it has every core already
    alone.wait()
    assert alone.quick_transcriber() is None


@pytest.mark.parametrize(
    ("cpus", "with_llm", "expected"),
    [(2, True, (1, 1)), (4, True, (2, 2)), (3, True, (2, 1)), (1, True, (1, 1)),
     (2, False, (2, 0)), (8, False, (8, 0))],
)  # fmt: skip
def test_the_recogniser_and_the_llm_share_the_cores(
    cpus: int, with_llm: bool, expected: tuple[int, int]
) -> None:
    assert session_threads(with_llm=with_llm, cpus=cpus) == expected
    asr, llm = expected
    assert asr + llm <= max(cpus, 2)


def test_a_tee_closes_every_sink_when_one_fails(tmp_path: Path) -> None:
    class FailingClose(FailingSink):
        def close(self) -> None:
            super().close()
            raise AudioError("the speaker vanished")

    copy = WavSink(tmp_path / "copy.wav")
    tee = TeeSink(FailingClose(), copy)
    with pytest.raises(AudioError, match="vanished"):
        tee.close()
    assert copy.closed and sf.info(str(tmp_path / "copy.wav")).samplerate == 16000
