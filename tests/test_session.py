"""The rehearsal loop: with fakes for every model (no models needed), with interruptions
(Ctrl-C, a vanished microphone), and end to end through the virtual mic with the real
default models."""

from __future__ import annotations

import json
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf
from conftest import FIXTURES, ManifestTranscriber, ScriptedLlm, manifest_entry
from helpers import FakeVoice

from coach.analysis.answers import Relevance
from coach.asr import AsrOptions
from coach.audience import AudienceOptions, Question
from coach.endpoint import EndpointOptions
from coach.live.events import QuietEvents
from coach.live.folder import SessionFolder
from coach.live.inputs import FileInput
from coach.live.models import Models
from coach.live.options import RehearseOptions
from coach.live.recorder import LiveOptions
from coach.live.rehearsal import (
    ACK_AFTER_TALK,
    ACK_DODGED,
    ACKS,
    CLOSING,
    NO_QUESTIONS,
    Rehearsal,
)
from coach.live.results import SessionResult
from coach.sinks import WavSink
from coach.stream import AudioFrame, DeviceError
from coach.tts import Speaker, TtsOptions

TALK = FIXTURES / "practice_talk.wav"
ANSWERS = [FIXTURES / f"answers/answer_{i:02d}.wav" for i in range(1, 7)]


class FollowTheScript(QuietEvents):
    """Switches the scripted recogniser to each answer's script as its phase starts."""

    def __init__(self, asr: ManifestTranscriber, answers: list[Path]) -> None:
        super().__init__()
        self.asr = asr
        self.answers = answers

    def phase(self, name, status, prompt=""):  # type: ignore[no-untyped-def]
        super().phase(name, status, prompt)
        if name.startswith("answer "):
            n = int(name.split()[1])
            self.asr.use(str(self.answers[n - 1].relative_to(FIXTURES)))
        if status is not None:
            status()  # the live display asks for figures; it must work at any moment


def q(text: str) -> str:
    return json.dumps({"question": text})


def run_session(
    tmp_path: Path,
    answers: list[Path],
    replies: list[str],
    *,
    voice_input: object | None = None,
    questions: int = 3,
    options: RehearseOptions | None = None,
    llm: ScriptedLlm | None = None,
    asr: ManifestTranscriber | None = None,
    **models_kw: Any,
) -> tuple[Rehearsal, FollowTheScript, WavSink, ScriptedLlm]:
    asr = asr or ManifestTranscriber()
    events = FollowTheScript(asr, answers)
    llm = llm or ScriptedLlm(replies)
    speaker = Speaker(FakeVoice(), TtsOptions(sentence_silence_s=0.0))
    models = Models(AsrOptions(), None, None, transcriber=asr, chat=llm,  # type: ignore[arg-type]
                    speaker=speaker, lines=ACKS, **models_kw)  # fmt: skip
    folder = SessionFolder(tmp_path / "session")
    sink = WavSink(folder.file("audience.wav"))
    voice_input = voice_input or FileInput(TALK, answers, realtime=False)
    options = options or RehearseOptions(
        questions=questions, audience=AudienceOptions(persona="skeptical", wording="llm")
    )
    session = Rehearsal(voice_input, models, sink, folder, options,
                        events=events)  # type: ignore[arg-type]  # fmt: skip
    session.run()
    return session, events, sink, llm


REPLIES = [  # about the claims the skeptical audience plans first, in order
    q("How did you count the sixty hours of firefighting?"),
    q("Wouldn't reviews slow new hires down rather than teach them?"),
    q("Why did so many of the changes break the build?"),  # made during answer 2
    q("How will you know after two weeks whether reviews help?"),  # the follow-up
]


def test_the_whole_loop_with_fakes(tmp_path: Path) -> None:
    session, events, sink, llm = run_session(tmp_path, ANSWERS[:4], list(REPLIES))
    res = session.result
    assert res.status == "complete", res.notes
    # talk report: the same analysis as `coach score`
    expected = manifest_entry("practice_talk.wav")["expected"]
    assert res.talk is not None and res.talk.word_count == expected["lexical_words"]
    # Q1 answered (answer_01), Q2 dodged (answer_02) -> follow-up answered (03), Q3 (04)
    kinds = [(e.question.kind, e.judgement.addressed) for e in res.exchanges]  # type: ignore[union-attr]
    assert kinds == [("question", True), ("question", False), ("follow_up", True),
                     ("question", True)]  # fmt: skip
    assert "deflected" in res.exchanges[1].judgement.reason  # type: ignore[union-attr]
    assert res.exchanges[2].question.focus == res.exchanges[1].question.focus
    # the follow-up prompt quoted the dodged answer
    assert "not sure" in llm.prompts[-1][-1]["content"]
    # everything the audience said went into the wav, in order
    said = [text for text, _a, _b in sink.segments]
    spoken_questions = [e.question.text for e in res.exchanges]
    for text in [*spoken_questions, ACK_DODGED, CLOSING]:
        assert any(text in s for s in said), text
    # the first question was ready at once, so it was asked without the opening line
    assert ACK_AFTER_TALK not in said and spoken_questions[0] in " ".join(said[:2])
    assert said.index(ACK_DODGED) < said.index(spoken_questions[2])  # then the follow-up
    # the session folder
    folder = session.folder.path
    for name in ("talk.wav", "audience.wav", "report.json", "report.html", "report.md",
                 "timings.jsonl", "transcript.md"):  # fmt: skip
        assert (folder / name).is_file(), name
    for i in range(1, 5):
        info = sf.info(str(folder / f"answers/answer_{i:02d}.wav"))
        assert info.samplerate == 16000 and info.frames > 16000
    report = json.loads((folder / "report.json").read_text())
    assert report["status"] == "complete" and len(report["qa"]) == 4
    assert report["qa"][1]["judgement"]["addressed"] is False
    assert report["qa"][0]["answer_delivery"]["word_count"] > 10
    timings = [json.loads(line) for line in (folder / "timings.jsonl").read_text().splitlines()]
    assert [t["reply"] for t in timings] == ["question", "question", "follow_up", "question",
                                             "closing"]  # fmt: skip
    for t in timings[1:]:
        assert t["stages"]["transcript_after_decision_s"] is not None
        assert t["stages"]["response_after_decision_s"] is not None
    html = (folder / "report.html").read_text()
    assert "Questions and answers" in html and "<svg" in html
    assert ("audience", ACK_DODGED) in events.lines


def test_answers_running_out_ends_the_questions(tmp_path: Path) -> None:
    session, events, _sink, _llm = run_session(tmp_path, ANSWERS[:1], list(REPLIES))
    res = session.result
    assert res.status == "complete"
    assert len(res.exchanges) == 2 and res.exchanges[1].answer is None
    assert any("no answer recording left" in n for n in res.notes)


def test_without_a_model_questions_come_from_the_talk(tmp_path: Path) -> None:
    asr = ManifestTranscriber()
    events = FollowTheScript(asr, ANSWERS)
    models = Models(AsrOptions(), None, None, transcriber=asr)  # type: ignore[arg-type]
    folder = SessionFolder(tmp_path / "s")
    sink = WavSink(folder.file("audience.wav"))
    session = Rehearsal(FileInput(TALK, ANSWERS[:2], realtime=False), models, sink, folder,
                        RehearseOptions(questions=1), events=events)  # fmt: skip
    res = session.run()
    assert res.status == "complete"
    assert all(e.question.source in ("grounded", "fallback") for e in res.exchanges)
    first = res.exchanges[0].question
    assert first.lead_in.startswith("You said ") and first.text.endswith("?")
    quote = first.lead_in.removeprefix("You said ").split(". ")[0]  # then the persona's stance
    said = quote.rstrip(".").replace(",", "").split()
    focus = first.focus.lower().replace(",", "").replace(".", "").split()
    # the claim, said back to the speaker in the second person
    assert all(w.lower() in focus for w in said if not w.lower().startswith("you")), (
        " ".join(said),
        " ".join(focus),
    )


def test_the_talk_and_answers_are_heard_with_every_core_while_the_llm_thread_is_idle(
    tmp_path: Path,
) -> None:
    asr = ManifestTranscriber()
    models = Models(AsrOptions(), None, None, transcriber=asr)  # type: ignore[arg-type]
    models.quick_transcriber = lambda: asr  # type: ignore[method-assign]  # the same words
    folder = SessionFolder(tmp_path / "s")
    voice_input = FileInput(TALK, ANSWERS[:2], realtime=False)
    sink = WavSink(folder.file("audience.wav"))
    events = FollowTheScript(asr, ANSWERS)
    session = Rehearsal(voice_input, models, sink, folder, RehearseOptions(questions=1),
                        events=events)  # fmt: skip
    res = session.run()
    assert res.status == "complete"
    talk, *answers = res.timings
    # no model: the LLM thread is idle but for the moments it prepares a question
    assert talk.after == "talk" and talk.quick_utterances > 0
    assert answers and all(t.quick_utterances > 0 for t in answers if t.after == "answer")


class BrokenInput(FileInput):
    """The virtual mic, failing after ``after_s`` of the talk or of the first answer."""

    def __init__(self, error: BaseException, *, in_answer: bool = False, after_s: float = 20.0):
        super().__init__(TALK, ANSWERS[:3], realtime=False)
        self.error = error
        self.in_answer = in_answer
        self.after_s = after_s

    def _break(self, frames: Iterator[AudioFrame]) -> Iterator[AudioFrame]:
        for frame in frames:
            if frame.start_s >= self.after_s:
                raise self.error
            yield frame

    def talk(self, stop):  # type: ignore[no-untyped-def]
        frames = super().talk(stop)
        return frames if self.in_answer else self._break(frames)

    def answer(self, index, stop):  # type: ignore[no-untyped-def]
        frames = super().answer(index, stop)
        return self._break(frames) if self.in_answer and frames is not None else frames


def test_ctrl_c_during_the_talk_ends_the_talk_and_keeps_it(tmp_path: Path) -> None:
    session, _e, _s, _l = run_session(
        tmp_path, [], [], voice_input=BrokenInput(KeyboardInterrupt()), questions=0
    )
    res = session.result
    assert res.status == "complete"  # Ctrl-C is one of the ways to end a talk
    assert res.talk is not None and res.talk.duration_s == pytest.approx(20.0, abs=0.05)
    assert 40 <= res.talk.word_count <= 60
    assert sf.info(str(session.folder.file("talk.wav"))).frames / 16000 == pytest.approx(
        20, abs=0.05
    )


def test_vanished_microphone_mid_talk_keeps_and_scores_the_talk(tmp_path: Path) -> None:
    error = DeviceError("the input stream from 'USB mic' stopped (device disconnected?)")
    session, _e, _s, _l = run_session(tmp_path, [], [], voice_input=BrokenInput(error))
    res = session.result
    assert res.status == "device_lost"
    assert res.talk is not None and 40 <= res.talk.word_count <= 60
    assert any("disconnected" in n for n in res.notes)
    assert not res.exchanges  # no questions without a microphone to answer them
    report = json.loads(session.folder.file("report.json").read_text())
    assert report["status"] == "device_lost" and report["talk"]["word_count"] == res.talk.word_count
    assert session.folder.file("report.html").is_file()


def test_ctrl_c_during_an_answer_keeps_everything_so_far(tmp_path: Path) -> None:
    voice_input = BrokenInput(KeyboardInterrupt(), in_answer=True, after_s=3.0)
    session, _e, _s, _l = run_session(tmp_path, ANSWERS[:3], list(REPLIES), voice_input=voice_input)
    res = session.result
    assert res.status == "interrupted"
    assert len(res.exchanges) == 1 and res.exchanges[0].answer is not None
    assert res.exchanges[0].answer.duration_s == pytest.approx(3.0, abs=0.05)
    report = json.loads(session.folder.file("report.json").read_text())
    assert report["status"] == "interrupted" and len(report["qa"]) == 1
    assert session.folder.file("answers/answer_01.wav").is_file()


def test_question_records_carry_generation_times(tmp_path: Path) -> None:
    session, _e, _s, _l = run_session(tmp_path, ANSWERS[:4], list(REPLIES))
    for e in session.result.exchanges:
        question: Question = e.question
        assert question.source == "llm"
        assert question.started_at <= question.first_token_at <= question.ready_at  # type: ignore[operator]


# --- the real thing ---------------------------------------------------------------------------


@pytest.mark.models
def test_rehearse_end_to_end_with_the_default_models(tmp_path: Path) -> None:
    """`coach rehearse` through the virtual mic: talk, report, spoken questions, answers."""
    from coach.asr import Transcriber
    from coach.audio import load
    from coach.cli import main
    from coach.transcript import tokens

    save = tmp_path / "session"
    speech = tmp_path / "audience.wav"
    args = ["rehearse", "--input", str(TALK), "--answers", *map(str, ANSWERS[:4]), "--fast",
            "--questions", "2", "--speak-to", str(speech), "--save", str(save),
            "--script", str(FIXTURES / "practice_talk.md")]  # fmt: skip
    assert main(args) == 0
    report = json.loads((save / "report.json").read_text())
    assert report["status"] == "complete"
    assert report["talk"]["word_count"] > 100
    assert report["script"]["skipped"] >= 1 and report["script"]["covered"] >= 5
    qa = report["qa"]
    assert 2 <= len(qa) <= 4
    assert any(not e["judgement"]["addressed"] for e in qa)  # answer_02 dodges
    assert (save / "report.html").is_file() and (save / "talk.wav").is_file()
    # every question was spoken into the wav: recognise it and find each question's words
    heard = set(tokens(" ".join(
        w.text for w in Transcriber.load(AsrOptions()).transcribe(load(speech))
    )))  # fmt: skip
    for e in qa:  # the lead-in and the question: "How was that measured?" alone is 2 words
        said = f"{e['question'].get('lead_in', '')} {e['question']['text']}"
        words = [t for t in tokens(said) if len(t) > 3]
        found = sum(t in heard for t in words)
        assert found >= 0.6 * len(words), (e["question"]["text"], sorted(heard))
    # the session keeps its own copy of what the audience said
    assert sf.info(str(save / "audience.wav")).frames == sf.info(str(speech)).frames


# --- the real microphone path, over a fake sounddevice ----------------------------------------


class PlayingStream:
    """A sounddevice.InputStream that 'hears' a recording, then silence (or vanishes)."""

    def __init__(self, audio, vanish_after_s, silence_s, **kwargs):  # type: ignore[no-untyped-def]
        self.kwargs = kwargs
        self.audio = audio
        self.vanish_after_s = vanish_after_s
        self.silence_s = silence_s
        self.active = False
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.active = True
        self._thread = threading.Thread(target=self._play, daemon=True)
        self._thread.start()

    def _play(self) -> None:
        n = self.kwargs["blocksize"]
        pcm = np.concatenate([self.audio, np.zeros(int(self.silence_s * 16000), np.int16)])
        flags = types.SimpleNamespace(input_overflow=False)
        mic = self.kwargs["callback"].__self__  # the Microphone whose callback this is
        for pos in range(0, pcm.size - n + 1, n):
            # faster than real time, but never further ahead of the reader than half of
            # what the Microphone buffers (a real device cannot run ahead of the clock), so
            # a slow machine drops no block
            while mic._queue.qsize() >= mic._max_blocks // 2 and not self._halt.is_set():
                time.sleep(0.005)
            if self._halt.is_set():
                return
            if self.vanish_after_s is not None and pos / 16000 >= self.vanish_after_s:
                self.active = False
                self.kwargs["finished_callback"]()  # PortAudio: the device went away
                return
            self.kwargs["callback"](pcm[pos : pos + n].reshape(-1, 1), n, None, flags)
            time.sleep(0.002)

    def stop(self) -> None:
        self._halt.set()
        self.active = False

    def close(self) -> None:
        pass


def fake_microphone(monkeypatch, *, vanish_after_s=None, silence_s=4.0):  # type: ignore[no-untyped-def]
    from coach import stream
    from coach.audio import load, to_int16

    audio = to_int16(load(TALK))
    device = {"name": "Fake USB mic", "hostapi": 0, "max_input_channels": 1,
              "max_output_channels": 0, "default_samplerate": 16000.0}  # fmt: skip
    sd = types.SimpleNamespace(
        PortAudioError=RuntimeError,
        default=types.SimpleNamespace(device=[0, -1]),
        query_devices=lambda *a, **k: [dict(device, index=0)],
        InputStream=lambda **kw: PlayingStream(audio, vanish_after_s, silence_s, **kw),
    )
    monkeypatch.setattr(stream, "load_sounddevice", lambda: sd)


def mic_session(tmp_path: Path, options: RehearseOptions) -> Rehearsal:
    from coach.live.inputs import MicInput

    asr = ManifestTranscriber()
    models = Models(AsrOptions(), None, None, transcriber=asr)  # type: ignore[arg-type]
    folder = SessionFolder(tmp_path / "mic")
    session = Rehearsal(MicInput(None), models, WavSink(folder.file("audience.wav")), folder,
                        options)  # fmt: skip
    session.run()
    return session


def test_microphone_talk_ends_after_the_silence(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    fake_microphone(monkeypatch, silence_s=6.0)
    session = mic_session(tmp_path, RehearseOptions(questions=0, end_silence_s=2.0))
    res = session.result
    assert res.status == "complete", res.notes
    expected = manifest_entry("practice_talk.wav")["expected"]
    assert res.talk is not None and res.talk.word_count == expected["lexical_words"]
    # the talk's own 0.5 s tail plus 2 s more of silence ended it, not the end of the audio
    assert 48.57 + 1.4 < res.talk.duration_s < 48.57 + 2.6
    assert ("note", "talk ended (2 s of silence): "
            f"{res.talk.duration_s:.1f} s recorded") in session.events.lines  # type: ignore[attr-defined]  # fmt: skip


def test_microphone_vanishing_mid_talk_keeps_the_talk(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    fake_microphone(monkeypatch, vanish_after_s=20.0)
    session = mic_session(tmp_path, RehearseOptions(questions=2))
    res = session.result
    assert res.status == "device_lost"
    assert any("stopped (device disconnected?)" in n for n in res.notes)
    assert res.talk is not None and 40 <= res.talk.word_count <= 60
    assert not res.exchanges
    saved = sf.info(str(session.folder.file("talk.wav")))
    assert saved.frames / 16000 == pytest.approx(20.0, abs=0.1)
    assert json.loads(session.folder.file("report.json").read_text())["status"] == "device_lost"


def test_questions_are_prepared_while_the_talk_goes_on(tmp_path: Path) -> None:
    """A paced talk (here 6 times real time) gives the LLM time between utterances: the
    first question is ready before the talk ends, about a claim of the talk."""

    class AboutTheClaim(ScriptedLlm):
        """Asks about the longest word of the claim in its prompt."""

        def stream(self, messages, **kwargs):  # type: ignore[no-untyped-def]
            claim = messages[-1]["content"].split('said: "')[-1].split('"')[0]
            word = max(claim.replace(",", " ").replace(".", " ").split(), key=len)
            self.replies = [f"Why {word.lower()}?"]
            return super().stream(messages, **kwargs)

    # utterances of at most 6 s, as a talk with pauses gives
    live = LiveOptions(endpoint=EndpointOptions(max_utterance_s=6.0))
    session, _events, _sink, llm = run_session(
        tmp_path, ANSWERS[:1], [], llm=AboutTheClaim([]),
        voice_input=FileInput(TALK, ANSWERS[:1], realtime=True, speed=6.0),
        options=RehearseOptions(questions=1, live=live,
                                audience=AudienceOptions(wording="llm")),
    )  # fmt: skip
    res = session.result
    assert res.status == "complete", res.notes
    first = res.exchanges[0].question
    talk_end = session._talk_timing.decided_s
    assert first.source == "llm" and first.ready_at is not None
    assert session.rel(first.ready_at) < talk_end  # prepared during the talk
    assert first.focus in [c.text for c in session._audience.claims]  # type: ignore[union-attr]
    # every prompt was one claim, never the whole talk
    assert all(len(p[-1]["content"].split()) < 120 for p in llm.prompts)
    assert len(llm.prompts) >= 2  # more than one candidate to choose from


def _paced_grounded_session(
    tmp_path: Path, asr: ManifestTranscriber | None = None, **models_kw: Any
) -> tuple[Rehearsal, WavSink]:
    """One grounded question about the practice talk, paced at 6 times real time (so
    questions are prepared during the talk), completed."""
    live = LiveOptions(endpoint=EndpointOptions(max_utterance_s=6.0))
    session, _events, sink, _llm = run_session(
        tmp_path, ANSWERS[:1], [], llm=models_kw.pop("llm", None) or ScriptedLlm([]), asr=asr,
        voice_input=FileInput(TALK, ANSWERS[:1], realtime=True, speed=6.0),
        options=RehearseOptions(questions=1, live=live), **models_kw,
    )  # fmt: skip
    assert session.result.status == "complete", session.result.notes
    return session, sink


def test_grounded_questions_are_prepared_and_spoken_during_the_talk(tmp_path: Path) -> None:
    """Worded from the talk (the default), the first question and its speech are ready
    before the talk ends, and it says back a clause of the talk."""
    session, _sink = _paced_grounded_session(tmp_path)
    first = session.result.exchanges[0].question
    assert first.source == "grounded" and first.lead_in.startswith("You said ")
    assert session.rel(first.ready_at) < session._talk_timing.decided_s
    assert first.spoken_text not in session.voice._prepared  # its speech, made early, was used


def test_the_first_question_begins_while_the_last_words_are_transcribed(tmp_path: Path) -> None:
    """Its quote is said when the talk ends, before the talk's transcript is ready, and
    the question follows it with nothing between."""

    class SlowTranscriber(ManifestTranscriber):
        def transcribe(self, samples, *, regions=None, offset_s=0.0):  # type: ignore[no-untyped-def]
            time.sleep(0.3)  # as a Whisper call takes, however short the audio
            return super().transcribe(samples, regions=regions, offset_s=offset_s)

    session, sink = _paced_grounded_session(tmp_path, SlowTranscriber())
    first = session.result.exchanges[0].question
    talk = session._talk_timing
    assert talk.question_audio_s is not None and talk.question_sentence_audio_s is not None
    assert talk.question_audio_s < talk.transcript_s <= talk.question_sentence_audio_s
    said = [text for text, _a, _b in sink.segments]
    start = said.index(first.lead_in.split(". ")[0] + ".")
    assert " ".join(said[start:]).startswith(first.spoken_text)  # no opening line between
    assert ACK_AFTER_TALK not in said
    lines = session.folder.file("transcript.md").read_text()
    assert lines.count(first.lead_in) == 1 and f"**Audience:** {first.spoken_text}" in lines


def test_an_audience_with_nothing_to_ask_says_so(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from coach.audience import Audience

    monkeypatch.setattr(Audience, "next_question", lambda self, optional=False: None)
    session, _events, sink, _llm = run_session(tmp_path, ANSWERS[:1], [])
    res = session.result
    assert res.status == "complete", res.notes
    assert res.exchanges == []
    said = " ".join(text for text, _a, _b in sink.segments)
    assert NO_QUESTIONS in said and CLOSING not in said


class SureJudge:
    """A judge model that is sure every answer gave what was asked."""

    def __init__(self) -> None:
        self.read: list[tuple[str, str, str]] = []

    def support(self, context: str, question: str, answer: str, *, ask: str = "answered") -> float:
        assert ask == "answered"  # asked whether it is on the subject only after a miss
        self.read.append((context, question, answer))
        return 0.99

    def relevance(self, context: str, question: str, answer: str) -> Relevance:
        return Relevance(1.0, 20.0)  # the question made the answer much likelier


def _rehearse_and_judge(tmp_path: Path, chat: ScriptedLlm, **models: Any) -> SessionResult:
    """The shipped talk and four answers with a skeptical audience worded by ``chat``;
    ``models``: the answer judge's options or model, for :class:`Models`."""
    asr = ManifestTranscriber()
    loaded = Models(AsrOptions(), None, None, transcriber=asr, chat=chat, lines=ACKS,  # type: ignore[arg-type]
                    speaker=Speaker(FakeVoice(), TtsOptions(sentence_silence_s=0.0)),
                    **models)  # fmt: skip
    folder = SessionFolder(tmp_path / "session")
    options = RehearseOptions(
        questions=3, audience=AudienceOptions(persona="skeptical", wording="llm")
    )
    return Rehearsal(FileInput(TALK, ANSWERS[:4], realtime=False), loaded,
                     WavSink(folder.file("audience.wav")), folder, options,
                     events=FollowTheScript(asr, ANSWERS[:4])).run()  # type: ignore[arg-type]  # fmt: skip


def test_the_judge_model_reads_every_answer_again_after_the_questions(tmp_path: Path) -> None:
    judge = SureJudge()
    res = _rehearse_and_judge(tmp_path, ScriptedLlm(list(REPLIES)), answer_judge=judge)
    assert res.status == "complete", res.notes
    # the dodged answer still got its follow-up during the session (decided by its words)
    assert [e.question.kind for e in res.exchanges] == ["question", "question", "follow_up",
                                                        "question"]  # fmt: skip
    assert len(judge.read) == 4 and all("after a talk" in c for c, _q, _a in judge.read)
    assert [a for _c, _q, a in judge.read] == [e.answer.transcript for e in res.exchanges]  # type: ignore[union-attr]
    dodged = res.exchanges[1].judgement
    assert dodged is not None and dodged.support == 0.99
    assert dodged.addressed and "by the words alone: dodged" in dodged.reason
    assert any("1 of 4 verdicts changed" in n for n in res.notes), res.notes
    saved = json.loads((res.folder / "report.json").read_text())
    assert saved["qa"][1]["judgement"]["support"] == 0.99


class FailingSubjectJudge(SureJudge):
    """Doubts every answer, then fails when asked whether one is on the subject."""

    def support(self, context: str, question: str, answer: str, *, ask: str = "answered") -> float:
        if ask == "on_subject":
            raise RuntimeError("the model ran out of memory")
        return 0.01


def test_a_judge_model_failing_midway_leaves_the_words_judgements(tmp_path: Path) -> None:
    res = _rehearse_and_judge(tmp_path, ScriptedLlm(list(REPLIES)),
                              answer_judge=FailingSubjectJudge())  # fmt: skip
    assert res.status == "complete", res.notes
    said = "answer judge model: RuntimeError: the model ran out of memory"
    assert any(said in n for n in res.notes), res.notes
    assert all(e.judgement is not None and e.judgement.support is None for e in res.exchanges)


class FailingLateJudge(SureJudge):
    """Reads two answers' gains, then fails on the third."""

    def relevance(self, context: str, question: str, answer: str) -> Relevance:
        self.read.append((context, question, answer))
        if len(self.read) > 6:
            raise RuntimeError("the model ran out of memory")
        return Relevance(1.0, 20.0)


def test_a_judge_model_failing_late_changes_no_judgement(tmp_path: Path) -> None:
    judge = FailingLateJudge()
    res = _rehearse_and_judge(tmp_path, ScriptedLlm(list(REPLIES)), answer_judge=judge)
    assert res.status == "complete", res.notes
    assert len(judge.read) == 7  # four odds, then the gains of two answers and the third's
    assert any("answer judge model: RuntimeError" in n for n in res.notes), res.notes
    assert all(e.judgement is not None and e.judgement.support is None for e in res.exchanges)


class ClosableLlm(ScriptedLlm):
    """A scripted chat model in a GGUF file of its own that records being closed."""

    def __init__(self, replies: list[str], path: Path) -> None:
        super().__init__(replies)
        self.path = path
        self.closed = False

    def close(self) -> None:
        self.closed = True


def _stub_gguf(path: Path) -> Path:
    path.write_bytes(b"GGUF" + bytes(60))  # a GGUF header llama.cpp cannot load
    return path


def test_the_question_model_is_freed_before_another_judge_model_loads(tmp_path: Path) -> None:
    from coach.judging import JudgeOptions

    llm = ClosableLlm(list(REPLIES), _stub_gguf(tmp_path / "asker.gguf"))
    judge = JudgeOptions(model=str(_stub_gguf(tmp_path / "judge.gguf")))
    res = _rehearse_and_judge(tmp_path, llm, judge=judge)
    assert res.status == "complete", res.notes
    assert len(res.exchanges) == 4 and llm.closed  # freed once every question was asked
    # the stub judge cannot load: the words' judgements stand, and the note says why
    assert any("answers judged by their words alone" in n and "judge.gguf" in n
               for n in res.notes), res.notes  # fmt: skip


def test_a_judge_in_the_question_models_file_is_that_model_not_a_second_copy(
    tmp_path: Path,
) -> None:
    from coach.judging import JudgeOptions

    llm = ClosableLlm([], _stub_gguf(tmp_path / "one.gguf"))
    models = Models(AsrOptions(), None, None, transcriber=ManifestTranscriber(), chat=llm,  # type: ignore[arg-type]
                    judge=JudgeOptions(model=str(tmp_path / "." / "one.gguf")))  # fmt: skip
    judge = models.judge(free_llm=True)
    assert judge is not None and judge.model is llm and not llm.closed
    assert "answer judge" not in models.errors


def test_a_judge_loaded_beside_the_talk_frees_another_question_model_after_it(
    tmp_path: Path,
) -> None:
    llm = ClosableLlm([], _stub_gguf(tmp_path / "asker.gguf"))
    beside = types.SimpleNamespace(model=ClosableLlm([], _stub_gguf(tmp_path / "judge.gguf")))
    models = Models(AsrOptions(), None, None, transcriber=ManifestTranscriber(), chat=llm,  # type: ignore[arg-type]
                    answer_judge=beside, read_asks=True)  # type: ignore[arg-type]  # fmt: skip
    assert models.judge() is beside and not llm.closed  # questions still to come
    assert models.judge(free_llm=True) is beside and llm.closed and not beside.model.closed
    same = ClosableLlm([], _stub_gguf(tmp_path / "one.gguf"))
    one = Models(AsrOptions(), None, None, transcriber=ManifestTranscriber(), chat=same,  # type: ignore[arg-type]
                 answer_judge=types.SimpleNamespace(model=same), read_asks=True)  # type: ignore[arg-type]  # fmt: skip
    assert one.judge(free_llm=True) is not None and not same.closed  # the judge itself


def test_a_fixed_line_is_said_from_its_speech_made_in_advance(tmp_path: Path) -> None:
    """A plain follow-up streamed sentence by sentence is one of the fixed lines: its
    speech, made in advance, is played rather than synthesised again."""
    from coach.live.voice import Voice

    speaker = Speaker(FakeVoice(), TtsOptions(sentence_silence_s=0.0))
    line = "Roughly what would it cost, and who would pay?"
    made = list(speaker.speak(line))
    folder = SessionFolder(tmp_path / "session")
    voice = Voice(WavSink(folder.file("audience.wav")), folder, who="audience",
                  lines={line: made})  # fmt: skip
    voice.speaker = types.SimpleNamespace(speak=lambda text: pytest.fail("synthesised again"))  # type: ignore[assignment]
    assert voice.speak(line) is not None
    assert f"**Audience:** {line}" in folder.file("transcript.md").read_text()


class ReadingJudge(SureJudge):
    """A judge model that also reads talks for their ask: it takes every talk for one
    that asks for something, and keeps each transcript it read."""

    def __init__(self) -> None:
        super().__init__()
        self.talks: list[str] = []

    def asks_listeners(self, transcript: str, *, cancel: object = None) -> float:
        self.talks.append(transcript)
        return 0.95


def test_the_judge_model_reads_the_talk_for_its_ask_while_it_goes_on(tmp_path: Path) -> None:
    """A talk whose ask no pattern finds, read by the judge model as an ask during the talk:
    the first question is about it as a whole, begun when the talk ends."""
    judge = ReadingJudge()
    follow_up = ScriptedLlm([q("Which part of it would you give up first?")] * 8)
    session, _sink = _paced_grounded_session(tmp_path, answer_judge=judge, read_asks=True,
                                             llm=follow_up)  # fmt: skip
    first = session.result.exchanges[0].question
    assert "what you're asking for" in first.text or "your request" in first.text, first
    assert not first.lead_in.startswith("You said")
    assert len(judge.talks) >= 2  # the talk so far, at new utterances
    assert all(a in b for a, b in zip(judge.talks, judge.talks[1:], strict=False))
    heard = session._audience.transcript  # type: ignore[union-attr]
    assert heard not in judge.talks  # not read again once whole: its last reading stood
    assert session.rel(first.ready_at) < session._talk_timing.decided_s + 0.5
    # without the reading (the default in tests), a quote of the talk
    plain, _sink = _paced_grounded_session(tmp_path / "plain")
    assert plain.result.exchanges[0].question.lead_in.startswith("You said ")
