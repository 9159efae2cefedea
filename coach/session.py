"""A rehearsal session: the talk at the mic, its report, then questions from an AI audience.

The loop, one part per module: frames from a :class:`VoiceInput` (a microphone, or files
played as a virtual mic) go to a :class:`coach.live.TalkRecorder`, which records,
transcribes as it goes and shows live figures; the talk's report is the one `coach score`
gives. Then an :class:`coach.audience.Audience` asks questions, spoken through Piper into
an :class:`coach.sinks.AudioSink`; each answer is recorded the same way, scored for
delivery and judged (:func:`coach.analysis.answers.judge_answer`); a dodged answer gets
one follow-up.

To answer quickly:

* models load once, the recogniser first (to start listening at once) and the LLM and
  voice in the background while the person talks;
* each answer is transcribed utterance by utterance while it is spoken, and the last
  utterance closes (and starts transcribing) before the silence that ends the turn is over;
* the next new question is generated while the person answers the current one, so after
  an answer that addressed it only the speaking is left; a follow-up is generated after
  the answer, streamed, and spoken sentence by sentence;
* a short acknowledgement ("Thank you.") is synthesised in advance and spoken the moment
  the turn ends, while the question is made ready.

Everything goes into the session folder as it happens (audio, transcripts, report,
per-turn timings), so Ctrl-C, a crash or a vanished microphone leaves a usable session.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import datetime as dt
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from coach import SAMPLE_RATE
from coach.analysis.answers import AnswerJudgement, judge_answer
from coach.asr import AsrOptions, Transcriber
from coach.audience import Audience, AudienceOptions, Question, follow_up_lines
from coach.errors import CoachError, OptionsError
from coach.files import write_text_atomic
from coach.live import LiveOptions, LiveStatus, TalkRecorder
from coach.llm import ChatModel, LlmOptions
from coach.report import ClipReport, headline
from coach.sinks import AudioSink
from coach.stream import AudioFrame, DeviceError
from coach.tts import Speaker, SpeechChunk, TtsOptions

logger = logging.getLogger(__name__)

ACK_AFTER_TALK = "Thank you for the talk."
ACK_ANSWERED = ("Thank you.", "Okay, thanks.", "Got it, thank you.", "Thanks.")
ACK_DODGED = "Let me push you on that."
ACK_NO_ANSWER = "No problem, let's move on."
CLOSING = "Thank you, those are all my questions."
ACKS = (ACK_AFTER_TALK, *ACK_ANSWERED, ACK_DODGED, ACK_NO_ANSWER, CLOSING)
"""Lines coach itself says (no LLM); synthesised in advance."""


# --- options ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RehearseOptions:
    """Options of a rehearsal session."""

    live: LiveOptions = field(default_factory=LiveOptions)
    """Capture, segmentation and analysis (the same analysis as `coach score`)."""
    audience: AudienceOptions = field(default_factory=AudienceOptions)
    """Persona and question checks."""
    questions: int = 3
    """New questions to ask after the talk (0: report only)."""
    follow_ups: bool = True
    """Ask one follow-up when an answer dodged its question."""
    end_silence_s: float | None = 10.0
    """A live talk ends after this much silence, seconds (None: only Enter or Ctrl-C)."""
    turn_silence_s: float = 1.2
    """An answer ends after this much silence following speech, seconds."""
    answer_wait_s: float = 15.0
    """No speech this long after a question: no answer, move on (seconds)."""
    max_answer_s: float = 240.0
    """An answer is cut off after this long, seconds."""
    min_answer_words: int = 8
    """Answers shorter than this many words do not address a question."""
    follow_up_budget_s: float = 1.8
    """A follow-up the LLM has not finished this many seconds after the end of the answer
    (or by the end of the line said before it, if that is later) is replaced by the plain
    follow-up for the question's kind, so it is heard within about 2 s."""
    ear_wait_s: float = 0.4
    """At the end of a live talk, how long the audience's recogniser may take to catch up
    on the last utterance, seconds (what it has not heard again is quoted as heard live)."""
    opening_wait_s: float = 0.6
    """After the talk, a question ready within this many seconds (prepared during the
    talk, then synthesised) is asked at once; otherwise the opening line ("Thank you for
    the talk.") is said while it is made."""
    answer_hangover_s: float = 0.3
    """Utterance hangover inside answers, seconds: shorter than the talk's, so the last
    utterance closes, and starts transcribing, 0.9 s before the silence that ends the turn
    (a Whisper call costs about a second however short the audio, for its 30 s window)."""

    def __post_init__(self) -> None:
        if self.questions < 0:
            raise OptionsError(f"questions must be 0 or more, not {self.questions}")
        if self.turn_silence_s < self.answer_hangover_s:
            raise OptionsError(
                f"the end-of-answer silence ({self.turn_silence_s} s) must not be shorter "
                f"than the answer's utterance hangover ({self.answer_hangover_s} s)"
            )

    @property
    def answer_live(self) -> LiveOptions:
        """Live options for answers: the answer hangover, pitch measured every 3 s."""
        hangover = min(self.live.endpoint.hangover_s, self.answer_hangover_s)
        endpoint = dataclasses.replace(self.live.endpoint, hangover_s=hangover)
        return dataclasses.replace(self.live, endpoint=endpoint, feature_block_s=2.97)


# --- inputs ----------------------------------------------------------------------------------


class VoiceInput(Protocol):
    """Where the person's voice comes from: the talk, then one answer at a time."""

    realtime: bool
    """Frames arrive at the pace of speech (a microphone, or a paced virtual mic)."""
    live_device: bool
    """A real microphone (silence ends the talk; coach's own speech must not be heard)."""

    def talk(self, stop: threading.Event) -> Iterator[AudioFrame]:
        """Frames of the talk, times from 0, until the source ends or ``stop`` is set."""
        ...

    def answer(self, index: int, stop: threading.Event) -> Iterator[AudioFrame] | None:
        """Frames of answer ``index`` (0-based), times from 0; None if there is none."""
        ...

    def close(self) -> None:
        """Release the device."""
        ...


def _until(frames: Iterator[AudioFrame], stop: threading.Event) -> Iterator[AudioFrame]:
    for frame in frames:
        if stop.is_set():
            return
        yield frame


class FileInput:
    """A virtual mic: the talk and the answers from recordings."""

    live_device = False

    def __init__(
        self, talk: Path | None, answers: list[Path], *, realtime: bool = True, speed: float = 1.0
    ) -> None:
        """Check every file now (a bad one fails before anything is recorded).

        Args:
            talk: the talk's recording (None for an interview, which has no talk).
            answers: one recording per answer, in order.

        Raises:
            AudioError: a file is missing or is not audio.
        """
        from coach.audio import probe

        for path in [talk, *answers]:
            if path is not None:
                probe(path)
        self.talk_path = talk
        self.answer_paths = answers
        self.realtime = realtime
        self.speed = speed

    def talk(self, stop: threading.Event) -> Iterator[AudioFrame]:
        from coach.stream import file_frames

        if self.talk_path is None:
            return iter(())
        return _until(file_frames(self.talk_path, realtime=self.realtime, speed=self.speed), stop)

    def answer(self, index: int, stop: threading.Event) -> Iterator[AudioFrame] | None:
        from coach.stream import file_frames

        if index >= len(self.answer_paths):
            return None
        frames = file_frames(
            self.answer_paths[index], realtime=self.realtime, speed=self.speed,
            then_silence_s=60.0,  # like a mic after the person stops: the silence ends the turn
        )  # fmt: skip
        return _until(frames, stop)

    def close(self) -> None:
        pass


class MicInput:
    """The microphone, half duplex: what it hears while coach speaks is dropped."""

    realtime = True
    live_device = True

    def __init__(self, device: str | int | None = None) -> None:
        """Open the microphone now.

        Raises:
            DeviceError: no microphone, or it cannot be opened (says what to do).
        """
        from coach.stream import Microphone

        self.mic = Microphone(device)
        self.mic.open()

    def _phase(self, stop: threading.Event) -> Iterator[AudioFrame]:
        t0: float | None = None
        for frame in self.mic.frames(stop):
            if t0 is None:
                t0 = frame.start_s
            yield AudioFrame(frame.samples, frame.start_s - t0)

    def talk(self, stop: threading.Event) -> Iterator[AudioFrame]:
        self.mic.discard_pending()
        return self._phase(stop)

    def answer(self, index: int, stop: threading.Event) -> Iterator[AudioFrame] | None:
        self.mic.discard_pending()
        return self._phase(stop)

    def close(self) -> None:
        self.mic.close()


# --- models ----------------------------------------------------------------------------------


def live_asr_options(model: str = "tiny.en") -> AsrOptions:
    """Recogniser options for a live session: every core for each call.

    Batch scoring runs one thread per core for throughput; live, one utterance at a time
    decides how soon the reply comes: tiny.en took 1.8 s on 7 s of speech with one
    thread and 1.3 s with two on the 2-core development machine.
    """
    return AsrOptions(model=model, cpu_threads=os.cpu_count() or 0)


class Models:
    """The three models, loaded once: the recogniser now, the LLM and voice in the background.

    ``llm()`` and ``speaker()`` wait for the background load. A model that fails to load is
    reported once as a warning and the session goes on without it (questions built from the
    talk's claims; questions shown as text); ``errors`` keeps why.
    """

    def __init__(
        self,
        asr: AsrOptions,
        llm: LlmOptions | None,
        tts: TtsOptions | None,
        *,
        transcriber: Transcriber | None = None,
        chat: ChatModel | None = None,
        speaker: Speaker | None = None,
        lines: tuple[str, ...] = ACKS,
        ear: AsrOptions | None = None,
    ) -> None:
        """Load the recogniser (unless given) and start the background load.

        Args:
            asr, llm, tts: what to load; ``llm``/``tts`` None for a session without them.
            transcriber, chat, speaker: models already loaded (used as they are).
            lines: fixed lines to synthesise once the voice is loaded (the audience's).
            ear: a second recogniser that hears the talk again for the audience (loaded
                first in the background); None to quote the live words.

        Raises:
            ModelError: the recogniser cannot be loaded.
        """
        self.transcriber = transcriber or Transcriber.load(asr)
        self.errors: dict[str, str] = {}
        self._llm: ChatModel | None = chat
        self._speaker: Speaker | None = speaker
        self.acks: dict[str, list[SpeechChunk]] = {}
        self._llm_options = llm
        self._tts_options = tts
        self._lines = lines
        self._ear_options = ear
        self._ear: Transcriber | None = None
        self._ear_ready = threading.Event()
        if ear is None:
            self._ear_ready.set()
        self._thread = threading.Thread(target=self._load, name="coach-models", daemon=True)
        self._thread.start()

    def _load(self) -> None:
        if self._ear_options is not None:
            try:
                self._ear = Transcriber.load(self._ear_options)
            except CoachError as exc:
                self.errors["audience asr"] = str(exc)
            finally:
                self._ear_ready.set()
        if self._speaker is None and self._tts_options is not None:
            try:
                self._speaker = Speaker.load(self._tts_options)
            except CoachError as exc:
                self.errors["voice"] = str(exc)
        if self._speaker is not None:
            for text in self._lines:
                self.acks[text] = list(self._speaker.speak(text))
        if self._llm is None and self._llm_options is not None:
            try:
                self._llm = ChatModel.load(self._llm_options)
            except CoachError as exc:
                self.errors["llm"] = str(exc)

    def wait(self) -> None:
        """Wait for the background load."""
        self._thread.join()

    def loaded(self) -> bool:
        """True once the background load is over (the models may still have failed)."""
        return not self._thread.is_alive()

    def ear(self) -> Transcriber | None:
        """The audience's recogniser (waits for its load), or None: none asked for, or it
        did not load."""
        self._ear_ready.wait()
        return self._ear

    def has_ear(self) -> bool:
        """True when a second recogniser was asked for (loaded or not)."""
        return self._ear_options is not None

    def llm(self) -> ChatModel | None:
        """The chat model, or None if it did not load."""
        self.wait()
        return self._llm

    def speaker(self) -> Speaker | None:
        """The voice, or None if it did not load."""
        self.wait()
        return self._speaker

    def names(self) -> dict[str, str]:
        """Which models the session used (a path, or "(not loaded) name")."""
        out = {"asr": self.transcriber.options.model}
        llm, sp = self._llm, self._speaker
        if llm is not None or self._llm_options is not None:
            name = self._llm_options.model if self._llm_options else ""
            out["llm"] = str(getattr(llm, "path", "custom")) if llm else f"(not loaded) {name}"
        if sp is not None or self._tts_options is not None:
            name = self._tts_options.voice if self._tts_options else ""
            out["voice"] = str(sp.model_path) if sp else f"(not loaded) {name}"
        return out


# --- the session folder ----------------------------------------------------------------------


def default_sessions_dir() -> Path:
    """Where sessions go without ``--save``: $COACH_DATA_DIR or the user data folder."""
    env = os.environ.get("COACH_DATA_DIR")
    if env:
        return Path(env).expanduser() / "sessions"
    from platformdirs import user_data_dir

    return Path(user_data_dir("coach", appauthor=False)) / "sessions"


class SessionFolder:
    """One session's files, each written whole (atomically) or appended line by line."""

    def __init__(self, path: Path) -> None:
        try:
            path.mkdir(parents=True, exist_ok=True)
            (path / "answers").mkdir(exist_ok=True)
        except OSError as exc:
            raise CoachError(f"{path}: cannot create the session folder ({exc.strerror})") from exc
        if not os.access(path, os.W_OK):
            raise CoachError(f"{path}: the session folder is not writable")
        self.path = path

    @classmethod
    def new(cls, base: Path | None, kind: str) -> SessionFolder:
        """A fresh folder ``<base>/<date>-<time>-<kind>`` (``base`` None: the default)."""
        base = base if base is not None else default_sessions_dir()
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = base / f"{stamp}-{kind}"
        n = 1
        while path.exists():
            n += 1
            path = base / f"{stamp}-{kind}-{n}"
        return cls(path)

    def file(self, name: str) -> Path:
        """Path of a file in the session."""
        return self.path / name

    def write_text(self, name: str, text: str) -> Path:
        """Write a whole file atomically (a crash leaves the old or the new one)."""
        return write_text_atomic(self.path / name, text)

    def write_json(self, name: str, obj: Any) -> Path:
        """Write a JSON file atomically."""
        return self.write_text(name, json.dumps(obj, indent=2, ensure_ascii=False) + "\n")

    def append_line(self, name: str, line: str) -> None:
        """Append one line and push it to disk."""
        with (self.path / name).open("a", encoding="utf-8") as f:
            f.write(line.rstrip("\n") + "\n")
            f.flush()
            os.fsync(f.fileno())


# --- results ---------------------------------------------------------------------------------


@dataclass
class TurnTiming:
    """When things happened in one turn, seconds since the session started (monotonic).

    A turn runs from the end of the person's speech (the talk, or an answer) to the first
    audio of the audience's reply.
    """

    turn: int
    """0 for the talk, then one per answer."""
    after: str
    """"talk" or "answer"."""
    speech_end_s: float | None = None
    """The person stopped speaking (from stream times; None when not paced in real time)."""
    decided_s: float | None = None
    """coach decided the turn was over (enough silence, end of input, Enter)."""
    transcript_s: float | None = None
    """The whole transcript of the turn was ready."""
    llm_start_s: float | None = None
    """Generation of the question asked next started (before ``decided_s`` when it was
    generated while the person answered)."""
    llm_first_token_s: float | None = None
    """The LLM's first token of that question."""
    question_ready_s: float | None = None
    """The question passed its checks."""
    first_audio_s: float | None = None
    """The first audio of the reply went out (the acknowledgement)."""
    question_audio_s: float | None = None
    """The first audio of the question itself went out."""
    reply: str = ""
    """"question", "follow_up" or "closing"."""

    def stages(self) -> dict[str, float | None]:
        """Durations, seconds: each stage and the end-to-end figures."""

        def d(a: float | None, b: float | None) -> float | None:
            return None if a is None or b is None else round(b - a, 3)

        return {
            "end_of_turn_wait_s": d(self.speech_end_s, self.decided_s),
            "transcript_after_decision_s": d(self.decided_s, self.transcript_s),
            "llm_first_token_s": d(self.llm_start_s, self.llm_first_token_s),
            "llm_question_s": d(self.llm_start_s, self.question_ready_s),
            "response_after_decision_s": d(self.decided_s, self.first_audio_s),
            "question_after_decision_s": d(self.decided_s, self.question_audio_s),
            "end_to_end_s": d(self.speech_end_s, self.first_audio_s),
            "question_end_to_end_s": d(self.speech_end_s, self.question_audio_s),
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the moments and the stages."""
        moments = {k: (None if v is None else round(v, 3)) for k, v in self.__dict__.items()
                   if k.endswith("_s")}  # fmt: skip
        return {"turn": self.turn, "after": self.after, "reply": self.reply, **moments,
                "stages": self.stages()}  # fmt: skip


def quantile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of ``values`` by linear interpolation."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def stage_percentiles(
    timings: list[TurnTiming], *, after: str = "answer"
) -> dict[str, dict[str, float]]:
    """p50, p95, max and n of every stage over the turns that follow ``after``."""
    stages: dict[str, list[float]] = {}
    for t in timings:
        if t.after != after:
            continue
        for k, v in t.stages().items():
            if v is not None:
                stages.setdefault(k, []).append(v)
    return {
        k: {"p50": round(quantile(v, 0.5), 3), "p95": round(quantile(v, 0.95), 3),
            "max": round(max(v), 3), "n": len(v)}
        for k, v in stages.items()
    }  # fmt: skip


@dataclass
class Exchange:
    """One question and its answer."""

    index: int
    """1-based position in the Q&A."""
    question: Question
    """What the audience asked."""
    answer_file: str = ""
    """The answer's recording in the session folder."""
    answer: ClipReport | None = None
    """The answer's delivery report (None: no answer recording was left)."""
    judgement: AnswerJudgement | None = None
    """Whether it addressed the question."""
    feedback: Any = None
    """Content feedback (coach.analysis.star.AnswerFeedback) in an interview, else None."""
    reply: str = ""
    """What the asker said back in answer to the person's own question (the closing)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        a = self.answer
        return {
            "index": self.index,
            "question": self.question.to_dict(),
            "answer_file": self.answer_file,
            "answer_transcript": a.transcript if a else "",
            "answer_delivery": headline(a) if a else None,
            "judgement": self.judgement.to_dict() if self.judgement else None,
            "feedback": self.feedback.to_dict() if self.feedback is not None else None,
            "reply": self.reply,
        }


@dataclass
class SessionResult:
    """What a session (a rehearsal or an interview) produced."""

    folder: Path
    """The session folder."""
    kind: str = "rehearse"
    """"rehearse" or "interview"."""
    context: dict[str, Any] = field(default_factory=dict)
    """What the session was about: role, company, persona, scenario, question types it
    leaned toward..."""
    practice: list[str] = field(default_factory=list)
    """The most valuable things to practise next (an interview's report)."""
    talk: ClipReport | None = None
    """The talk's report."""
    exchanges: list[Exchange] = field(default_factory=list)
    """Questions and answers, in order."""
    timings: list[TurnTiming] = field(default_factory=list)
    """Per-turn timings."""
    script: Any = None
    """Script coverage (coach.analysis.script.ScriptCoverage), if a script was given."""
    status: str = "running"
    """"complete", "interrupted" (Ctrl-C), "device_lost", "no_speech" or "running"."""
    notes: list[str] = field(default_factory=list)
    """One-line notes for the person (model missing, answers ran out, device lost...)."""
    ready_s: float | None = None
    """Seconds from the start of the session until it listened to the first frame."""
    models: dict[str, str] = field(default_factory=dict)
    """Models used."""
    started: str = ""
    """Local start time, ISO 8601."""

    def to_dict(self) -> dict[str, Any]:
        """The session report as JSON (schema in README.md)."""
        return {
            "schema": 1,
            "kind": self.kind,
            "started": self.started,
            "status": self.status,
            "context": self.context,
            "practice": self.practice,
            "notes": self.notes,
            "models": self.models,
            "ready_s": None if self.ready_s is None else round(self.ready_s, 3),
            "talk": self.talk.to_dict() if self.talk else None,
            "script": self.script.to_dict() if self.script is not None else None,
            "qa": [e.to_dict() for e in self.exchanges],
            "timings": [t.to_dict() for t in self.timings],
        }


# --- the loop --------------------------------------------------------------------------------


class Events(Protocol):
    """What the session tells the person as it goes (the terminal, or nothing in tests)."""

    def phase(self, name: str, status: Callable[[], LiveStatus] | None, prompt: str = "") -> None:
        """A phase starts ("talk", "answer 1"...); ``status`` gives live figures."""
        ...

    def say(self, who: str, text: str) -> None:
        """A line of the conversation ("audience", "you", "coach")."""
        ...

    def note(self, text: str) -> None:
        """A one-line note (warnings, what happens next)."""
        ...

    def talk_report(self, report: ClipReport, script: Any) -> None:
        """The talk's report is ready."""
        ...

    def end_phase(self) -> None:
        """The current phase is over (stop the live display)."""
        ...


class QuietEvents:
    """Events that go nowhere (tests, benchmarks); lines are kept in ``lines``."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def phase(self, name: str, status: Callable[[], LiveStatus] | None, prompt: str = "") -> None:
        self.lines.append(("phase", name))

    def say(self, who: str, text: str) -> None:
        self.lines.append((who, text))

    def note(self, text: str) -> None:
        self.lines.append(("note", text))

    def talk_report(self, report: ClipReport, script: Any) -> None:
        self.lines.append(("report", report.file))

    def end_phase(self) -> None:
        pass


def _in_thread(
    pool: concurrent.futures.Executor, make: Callable[[], Iterator[Any]]
) -> Iterator[Any]:
    """Run a generator on ``pool`` and hand its items over as they come."""
    items: queue.Queue[Any] = queue.Queue()
    end = object()

    def run() -> None:
        try:
            for item in make():
                items.put(item)
        except BaseException as exc:  # passed to the consumer
            items.put(exc)
        items.put(end)

    pool.submit(run)
    while True:
        item = items.get()
        if item is end:
            return
        if isinstance(item, BaseException):
            raise item
        yield item


@dataclass
class _Reply:
    """A question ready to be spoken."""

    question: Question
    chunks: list[SpeechChunk] | None = None
    """Its speech, synthesised in advance (None: synthesise when spoken)."""
    spoken: bool = False
    """Already spoken while it was generated (a streamed follow-up)."""


@dataclass(frozen=True)
class Verdict:
    """What the asking side makes of an answer."""

    addressed: bool
    """The answer engaged with the question."""
    follow_up: bool
    """Worth a follow-up (dodged, or vague in an interview)."""
    ack: str
    """What to say first, the moment the turn ends (synthesised in advance)."""
    reason: str = ""
    """Why, in one line (the measured facts)."""
    press: str = ""
    """Said instead of ``ack`` before a follow-up ("Not quite.")."""


class Asker(Protocol):
    """The other side of the conversation: the audience, an interviewer, a scenario partner.

    The engine (:class:`Conversation`) records, times, speaks and saves; the asker decides
    what to ask and what to make of the answers.
    """

    opening: str
    """Said before the first question."""
    opening_optional: bool
    """Skip the opening when the first question is ready at once (the audience)."""
    closing: str
    """Said after the last answer."""
    no_answer: str
    """Said when no answer was heard."""
    lines: tuple[str, ...]
    """Fixed lines worth synthesising in advance (acknowledgements)."""

    def next_question(self) -> Question | None:
        """The next new question, or None when there are no more (runs on the LLM thread)."""
        ...

    def judge(self, exchange: Exchange) -> Verdict:
        """Judge the answer; fills ``exchange.judgement`` (and ``feedback``)."""
        ...

    def follow_up(
        self, exchange: Exchange, verdict: Verdict, deadline: float | None = None
    ) -> Iterator[str | Question]:
        """Stream a follow-up: sentences, then the :class:`Question` record; a model not
        done by ``deadline`` (time.monotonic()) gives way to a plain follow-up."""
        ...

    def respond(self, exchange: Exchange) -> Callable[[], Iterator[str]] | None:
        """A reply to the person's own question (the closing of an interview), or None."""
        ...


class AudienceAsker:
    """The AI audience as an :class:`Asker`: ``n`` questions about the talk; an answer that
    missed its question (:func:`coach.analysis.answers.judge_answer`: dodged, off the
    topic, or only part of it) gets one follow-up that names what it left out."""

    opening = ACK_AFTER_TALK
    opening_optional = True
    """The opening is said only while the first question is not ready yet."""
    closing = CLOSING
    no_answer = ACK_NO_ANSWER

    def __init__(self, audience: Audience, n: int, *, min_words: int = 8) -> None:
        self.audience = audience
        self.n = n
        self.min_words = min_words
        self._asked = 0
        self._acks = 0
        self.lines = ACKS + (press_line("partial"), press_line("off_topic"), *follow_up_lines())

    def next_question(self) -> Question | None:
        if self._asked >= self.n:
            return None
        self._asked += 1
        return self.audience.next_question()

    def judge(self, exchange: Exchange) -> Verdict:
        q, answer = exchange.question, exchange.answer
        text = answer.transcript if answer else ""
        plan = self.audience.plan_for(q)
        j = judge_answer(q.spoken_text, text, min_words=self.min_words,
                         context=plan.claim.text if plan else self.audience.transcript)  # fmt: skip
        exchange.judgement = j
        self.audience.hear(q, text)
        ack = ACK_ANSWERED[self._acks % len(ACK_ANSWERED)]
        self._acks += 1
        press = press_line(j.verdict)
        return Verdict(j.addressed, not j.addressed and j.words > 0, ack, j.reason, press)

    def follow_up(
        self, exchange: Exchange, verdict: Verdict, deadline: float | None = None
    ) -> Iterator[str | Question]:
        answer = exchange.answer.transcript if exchange.answer else ""
        return self.audience.ask(follow_up_to=exchange.question, answer=answer,
                                 why=verdict.reason, deadline=deadline)  # fmt: skip

    def respond(self, exchange: Exchange) -> Callable[[], Iterator[str]] | None:
        return None


def press_line(verdict: str) -> str:
    """What the audience says the moment an answer missed its question: short (about a
    second), so the follow-up itself, which asks for what was missing, is heard within
    about two seconds of the end of the answer."""
    if verdict == "partial":
        return "Not quite."
    if verdict == "off_topic":
        return "That's a different point."
    return ACK_DODGED


class Conversation:
    """The engine of a spoken session: listen, judge, speak, time and save each turn.

    Subclasses say what happens (:meth:`_body`): :class:`Rehearsal` records a talk and then
    lets the audience ask; an interview goes straight to the questions. :meth:`run` keeps
    the session folder complete whatever happens (Ctrl-C, a vanished microphone).
    """

    kind = "conversation"

    def __init__(
        self,
        voice_input: VoiceInput,
        models: Models,
        sink: AudioSink,
        folder: SessionFolder,
        options: RehearseOptions = RehearseOptions(),
        *,
        events: Events | None = None,
        started_at: float | None = None,
    ) -> None:
        self.input = voice_input
        self.models = models
        self.sink = sink
        self.folder = folder
        self.options = options
        self.events = events or QuietEvents()
        self.t0 = time.monotonic() if started_at is None else started_at
        self.result = SessionResult(
            folder.path, kind=self.kind, started=dt.datetime.now().isoformat(timespec="seconds")
        )
        self._stop = threading.Event()
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="coach-llm")
        self.speaker: Speaker | None = None
        """The voice, once the questions start (None: none loaded, speech as text only)."""
        self._speech: dict[str, list[SpeechChunk]] = {}
        """Questions synthesised in advance (prepared during the talk), by spoken text."""

    def now(self) -> float:
        """Seconds since the session started."""
        return time.monotonic() - self.t0

    def rel(self, t: float | None) -> float | None:
        """A time.monotonic() value as seconds since the session started."""
        return None if t is None else t - self.t0

    def end_phase_now(self) -> None:
        """End the talk or the current answer now (Enter)."""
        self._stop.set()

    # -- running ---------------------------------------------------------------------------

    def run(self) -> SessionResult:
        """Run the session; the folder is complete whatever happens."""
        res = self.result
        self._save()
        try:
            self._body()
            if res.status == "running":
                res.status = "complete"
        except KeyboardInterrupt:
            res.status = "interrupted"
            res.notes.append("stopped with Ctrl-C: everything so far is saved")
        except DeviceError as exc:
            res.status = "device_lost"
            res.notes.append(str(exc))
        finally:
            self.events.end_phase()
            self._pool.shutdown(wait=True, cancel_futures=True)
            try:
                self.sink.close()
            except CoachError as exc:
                res.notes.append(f"audio output: {exc}")
            self.input.close()
            self._finish()
            self._save(pages=True)
        return res

    def _body(self) -> None:
        raise NotImplementedError

    def _finish(self) -> None:
        """Last words on the result before it is saved (the interview's practice list)."""

    def _save(self, *, pages: bool = False) -> None:
        """Write report.json (cheap, after every step); with ``pages`` also the HTML and
        Markdown reports (charts take a moment: after the talk and at the end)."""
        res = self.result
        res.models = self.models.names()
        self.folder.write_json("report.json", res.to_dict())
        if pages:
            self._write_pages(res)

    def _write_pages(self, res: SessionResult) -> None:
        """The HTML and Markdown reports of ``res``."""
        if res.talk is not None or res.exchanges:
            from coach.render.session import session_html, session_markdown

            self.folder.write_text("report.html", session_html(res))
            self.folder.write_text("report.md", session_markdown(res))

    def _models_for_questions(self) -> ChatModel | None:
        """Wait for the LLM and voice; note any that did not load. Returns the LLM."""
        res = self.result
        llm = self.models.llm()
        self.speaker = self.models.speaker()
        for what, why in self.models.errors.items():
            res.notes.append(f"{what}: {why}")
            self.events.note(f"{what} not available: {why}")
        return llm

    # -- questions and answers -------------------------------------------------------------

    def _qa(self, asker: Asker, timing: TurnTiming) -> None:
        """The question-and-answer loop; see the module docstring for the timing tricks."""
        res = self.result
        upcoming: concurrent.futures.Future[_Reply | None] | None = self._prepare(asker)
        if self.speaker is not None:  # after the first question: it may be ready at once
            self._pool.submit(self._synthesise, asker.lines)
        try:  # a question prepared in advance is asked at once; else the opening fills in
            if not asker.opening_optional:
                raise concurrent.futures.TimeoutError
            upcoming.result(timeout=self.options.opening_wait_s)
        except concurrent.futures.TimeoutError:
            self._speak_ack(asker.opening, timing)
        reply = self._await(upcoming, timing)  # type: ignore[arg-type]
        upcoming = None
        answer_index = 0
        while reply is not None:
            self._speak_reply(reply, timing)
            self._log_turn(timing)
            if upcoming is None:
                upcoming = self._prepare(asker)  # made while the person answers
            exchange = Exchange(len(res.exchanges) + 1, reply.question)
            res.exchanges.append(exchange)
            self._save()
            timing = TurnTiming(len(res.timings), "answer")
            heard = self._listen(answer_index, exchange, timing)
            answer_index += 1
            if heard is None:
                res.notes.append(
                    f"no answer recording left for question {exchange.index} (--answers): "
                    "the questions end here"
                )
                upcoming.cancel()
                return
            verdict = asker.judge(exchange)
            respond = asker.respond(exchange)
            if respond is not None:
                self._speak_ack(verdict.ack, timing)  # "Good question." while the reply is made
                self._respond(respond, exchange, timing)
            elif exchange.answer is not None and not exchange.answer.transcript.strip():
                self._speak_ack(asker.no_answer, timing)
            elif (
                verdict.follow_up and self.options.follow_ups and reply.question.kind == "question"
            ):
                reply = self._follow_up(asker, exchange, verdict, timing)
                self._save()
                continue
            else:
                self._speak_ack(verdict.ack, timing)
            self._save()
            reply = self._await(upcoming, timing)
            upcoming = None
        timing.reply = "closing"
        self._speak_ack(asker.closing, timing)
        self._log_turn(timing)

    def _synthesise(self, lines: tuple[str, ...]) -> None:
        speaker = self.speaker
        for text in lines:
            if speaker is not None and text not in self.models.acks:
                self.models.acks[text] = list(speaker.speak(text))

    def _log_turn(self, timing: TurnTiming) -> None:
        self.result.timings.append(timing)
        self.folder.append_line("timings.jsonl", json.dumps(timing.to_dict()))

    def _prepare(self, asker: Asker) -> concurrent.futures.Future[_Reply | None]:
        """Generate the next new question, and synthesise it, on the LLM thread."""

        def job() -> _Reply | None:
            question = asker.next_question()
            if question is None:
                return None
            speaker = self.speaker
            chunks = self._speech.pop(question.spoken_text, None)  # synthesised in advance
            if chunks is None and speaker is not None:
                chunks = list(speaker.speak(question.spoken_text))
            return _Reply(question, chunks)

        return self._pool.submit(job)

    def _await(
        self, future: concurrent.futures.Future[_Reply | None], timing: TurnTiming
    ) -> _Reply | None:
        reply = future.result()
        if reply is not None:
            self._time_question(reply.question, timing)
        return reply

    def _time_question(self, q: Question, timing: TurnTiming) -> None:
        timing.llm_start_s = self.rel(q.started_at)
        timing.llm_first_token_s = self.rel(q.first_token_at)
        timing.question_ready_s = self.rel(q.ready_at)

    def _follow_up(
        self, asker: Asker, exchange: Exchange, verdict: Verdict, timing: TurnTiming
    ) -> _Reply:
        """Press, then stream the follow-up into speech as it is generated."""
        press_end = self._speak_ack(verdict.press or verdict.ack, timing)
        # the follow-up is wanted by the time the press line has been heard, and within
        # the budget after the decision; a slower model gives way to a plain follow-up
        decided = self.t0 + (timing.decided_s or self.now())
        budget_end = decided + self.options.follow_up_budget_s
        deadline = max(budget_end, self.t0 + press_end) if press_end is not None else budget_end
        record: Question | None = None
        for item in _in_thread(self._pool, lambda: asker.follow_up(exchange, verdict, deadline)):
            if isinstance(item, Question):
                record = item
                break
            t = self._speak(item)
            if timing.question_audio_s is None:
                timing.question_audio_s = t
        assert record is not None
        timing.reply = "follow_up"
        self._time_question(record, timing)
        self.events.say(self.who, record.spoken_text)
        return _Reply(record, spoken=True)

    def _respond(
        self, respond: Callable[[], Iterator[str]], exchange: Exchange, timing: TurnTiming
    ) -> None:
        """Speak the asker's reply to the person's own question as it streams."""
        said = []
        for sentence in _in_thread(self._pool, respond):
            t = self._speak(sentence)
            if timing.first_audio_s is None:
                timing.first_audio_s = t
            said.append(sentence)
        exchange.reply = " ".join(said)
        if said:
            self.events.say(self.who, exchange.reply)

    who = "audience"
    """How the asking side is named in the transcript and the terminal."""

    def _speak_reply(self, reply: _Reply, timing: TurnTiming) -> None:
        if reply.spoken:
            return  # a follow-up is spoken while it is generated
        timing.reply = timing.reply or reply.question.kind
        text = reply.question.spoken_text
        timing.question_audio_s = self._speak(text, reply.chunks)
        self.events.say(self.who, text)

    def _speak_ack(self, text: str, timing: TurnTiming) -> float | None:
        """Say a fixed line; returns when it will have been heard, session seconds."""
        chunks = self.models.acks.get(text)
        t = self._speak(text, chunks)
        if timing.first_audio_s is None:
            timing.first_audio_s = t
        self.events.say(self.who, text)
        if t is None or chunks is None:
            return t
        return t + sum(c.duration_s for c in chunks)

    def _speak(self, text: str, chunks: list[SpeechChunk] | None = None) -> float | None:
        """Speak ``text`` (or its ``chunks`` synthesised in advance); returns when its first
        audio went out, session seconds."""
        speaker = self.speaker
        if speaker is None:  # no voice: the sink still gets the text (a beat of silence)
            silence = np.zeros(SAMPLE_RATE // 10, np.int16)
            spoken: Iterable[SpeechChunk] = [SpeechChunk(text, silence, SAMPLE_RATE, 0.0)]
        else:
            spoken = chunks if chunks is not None else speaker.speak(text)
        first: float | None = None
        for chunk in spoken:
            t = self.sink.play(chunk)
            if first is None:
                first = self.rel(t)
        self.folder.append_line("transcript.md", f"\n**{self.who.capitalize()}:** {text}")
        return first

    def _speech_end(self, recorder: TalkRecorder, decided: float) -> float | None:
        """Wall time (session seconds) the person stopped speaking, from stream times."""
        if not recorder.utterances or not self.input.realtime:
            return None
        _, speech_end, _ = recorder.utterances[-1]
        lag = recorder.received_s - speech_end
        return self.rel(decided) - lag  # type: ignore[operator]

    def _listen(self, index: int, exchange: Exchange, timing: TurnTiming) -> bool | None:
        """Record and judge one answer; None if there is no answer to record."""
        opts = self.options
        if self.input.realtime:  # the answer starts once the question has been heard
            self.sink.drain()
        self._stop.clear()
        frames = self.input.answer(index, self._stop)
        if frames is None:
            return None
        name = f"answers/answer_{exchange.index:02d}.wav"
        recorder = TalkRecorder(
            self.models.transcriber, opts.answer_live, wav_path=self.folder.file(name)
        )
        self.events.phase(f"answer {exchange.index}", recorder.status, exchange.question.text)
        first_speech: float | None = None
        try:
            for frame in frames:
                if self.result.ready_s is None:  # an interview listens first
                    self.result.ready_s = self.now()
                recorder.feed(frame)
                if recorder.had_speech:
                    if first_speech is None:
                        first_speech = frame.start_s
                    if recorder.silence_s >= opts.turn_silence_s - 1e-6:
                        break
                    if frame.end_s - first_speech >= opts.max_answer_s:
                        self.events.note(f"answer cut off after {opts.max_answer_s:g} s")
                        break
                elif frame.end_s >= opts.answer_wait_s:
                    break
        except (KeyboardInterrupt, DeviceError):
            self._finish_answer(recorder, exchange, name, timing, time.monotonic())
            raise
        self._finish_answer(recorder, exchange, name, timing, time.monotonic())
        return True

    def _finish_answer(
        self, recorder: TalkRecorder, exchange: Exchange, name: str, timing: TurnTiming,
        decided: float,
    ) -> None:  # fmt: skip
        self.events.end_phase()
        report = recorder.finish(file=str(self.folder.file(name)))
        timing.decided_s = self.rel(decided)
        timing.transcript_s = self.now()
        timing.speech_end_s = self._speech_end(recorder, decided)
        exchange.answer_file = name
        exchange.answer = report
        self.events.say("you", report.transcript or "(no answer heard)")
        self.folder.append_line("transcript.md", f"\n**You:** {report.transcript or '(no answer)'}")


def _is_follow_up(reply: _Reply) -> bool:
    """Follow-ups are not followed up again."""
    return reply.question.kind == "follow_up"


class Rehearsal(Conversation):
    """A talk, its report, then the audience's questions; see the module docstring."""

    kind = "rehearse"

    def __init__(
        self,
        voice_input: VoiceInput,
        models: Models,
        sink: AudioSink,
        folder: SessionFolder,
        options: RehearseOptions = RehearseOptions(),
        *,
        events: Events | None = None,
        script_text: str | None = None,
        started_at: float | None = None,
    ) -> None:
        super().__init__(voice_input, models, sink, folder, options, events=events,
                         started_at=started_at)  # fmt: skip
        self.script_text = script_text
        self._audience: Audience | None = None
        """The audience, made during the talk once the LLM is loaded, to prepare questions."""
        self._prep: concurrent.futures.Future[object] | None = None
        self._prep_heard = 0
        self._heard = ""
        """The talk as the audience heard it (its own recogniser where it caught up)."""

    def _prepare_during_talk(self, recorder: TalkRecorder) -> None:
        """Let the audience prepare a candidate question from the talk so far, on the LLM
        thread, whenever a new utterance was transcribed and the last candidate is done."""
        if self.options.questions <= 0 or not self.input.realtime or not self.models.loaded():
            return  # a virtual mic played fast leaves no time to prepare
        if self._prep is not None and not self._prep.done():
            return
        llm = self.models.llm()
        if llm is None:
            return
        if self._audience is None:  # the prompt's fixed part into llama.cpp's cache, now
            self._audience = Audience(llm, "", self.options.audience)
            self._prep = self._pool.submit(self._audience.warm_up)
            return
        heard = recorder.heard_count()
        if heard == self._prep_heard:
            return
        self._prep_heard = heard
        audience, text = self._audience, recorder.heard_so_far()

        def job() -> None:  # a candidate, and its speech, made while the talk goes on
            q = audience.prepare(text, limit=2 * self.options.questions + 1)
            speaker = self.models.speaker()
            if q is not None and speaker is not None:
                self._speech[q.spoken_text] = list(speaker.speak(q.spoken_text))

        self._prep = self._pool.submit(job)

    def _end_preparation(self) -> None:
        """Wait for a candidate still being generated (one question at most)."""
        if self._prep is None:
            return
        if self._audience is not None:
            self._audience.stop_preparing.set()
        try:
            self._prep.result()
        except CoachError as exc:
            self.result.notes.append(f"preparing questions during the talk: {exc}")

    def _body(self) -> None:
        talk = self._talk()
        if talk is None or self.result.status != "running" or self.options.questions <= 0:
            return
        llm = self._models_for_questions()
        if llm is None:
            self.events.note("questions are built from the talk's claims (no LLM)")
        self._end_preparation()
        heard = self._heard or talk.transcript
        audience = self._audience or Audience(llm, heard, self.options.audience)
        audience.update(heard)
        asker = AudienceAsker(audience, self.options.questions,
                              min_words=self.options.min_answer_words)  # fmt: skip
        # the talk's HTML report is written while the first question is made
        # the talk's HTML and Markdown pages (charts: about 1.5 s) are written beside the
        # questions, from a copy holding the talk only; the final pages replace them
        talk_only = dataclasses.replace(self.result, exchanges=[], timings=[])
        pages = threading.Thread(target=self._write_pages, args=(talk_only,),
                                 name="coach-pages")  # fmt: skip
        pages.start()
        try:
            self._qa(asker, self._talk_timing)
        finally:
            pages.join()

    # -- the talk --------------------------------------------------------------------------

    def _talk(self) -> ClipReport | None:
        opts = self.options
        res = self.result
        recorder = TalkRecorder(
            self.models.transcriber, opts.live, wav_path=self.folder.file("talk.wav"),
            ear=self.models.ear if self.models.has_ear() and opts.questions > 0 else None,
        )  # fmt: skip
        self._stop.clear()
        self.events.phase("talk", recorder.status)
        ended_by = "end of input"
        try:
            for frame in self.input.talk(self._stop):
                if res.ready_s is None:  # listening since the frame began
                    res.ready_s = self.now() - (frame.duration_s if self.input.realtime else 0)
                recorder.feed(frame)
                self._prepare_during_talk(recorder)
                if (
                    self.input.live_device
                    and opts.end_silence_s is not None
                    and recorder.had_speech
                    and recorder.silence_s >= opts.end_silence_s
                ):
                    ended_by = f"{opts.end_silence_s:g} s of silence"
                    break
            if self._stop.is_set():
                ended_by = "Enter"
        except KeyboardInterrupt:
            ended_by = "Ctrl-C"
        except DeviceError as exc:
            res.status = "device_lost"
            res.notes.append(f"{exc}; the talk so far is kept and scored")
            ended_by = "device lost"
        decided = time.monotonic()
        self.events.end_phase()
        self.events.note(f"talk ended ({ended_by}): {recorder.received_s:.1f} s recorded")
        report = recorder.finish(file=str(self.folder.file("talk.wav")))
        transcript_ready = time.monotonic()
        # what the audience quotes: the talk heard again by its recogniser, as far as it got
        self._heard = recorder.heard_text(wait_s=opts.ear_wait_s if self.input.realtime else 600.0)
        res.talk = report
        self._talk_timing = TurnTiming(
            0, "talk", decided_s=self.rel(decided), transcript_s=self.rel(transcript_ready),
            speech_end_s=self._speech_end(recorder, decided),
        )  # fmt: skip
        if self.script_text is not None:
            from coach.analysis.script import script_coverage
            from coach.transcript import Word

            words = [Word(w.text, w.start_s, w.end_s) for w in report.words]
            res.script = script_coverage(self.script_text, words)
        self.folder.write_text("transcript.md", f"# Talk\n\n{report.transcript}\n")
        self._save()
        self.events.talk_report(report, res.script)
        if not recorder.had_speech or report.word_count == 0:
            res.status = "no_speech"
            res.notes.append("no speech was heard in the talk: check the microphone level")
            return None
        return report

    def _speech_end(self, recorder: TalkRecorder, decided: float) -> float | None:
        """Wall time (session seconds) the person stopped speaking, from stream times."""
        if not recorder.utterances or not self.input.realtime:
            return None
        _, speech_end, _ = recorder.utterances[-1]
        lag = recorder.received_s - speech_end
        return self.rel(decided) - lag  # type: ignore[operator]


__all__ = [
    "AudienceAsker", "Asker", "Conversation", "Exchange", "FileInput", "MicInput", "Models",
    "QuietEvents", "Rehearsal", "Verdict",
    "RehearseOptions", "SessionFolder", "SessionResult", "TurnTiming", "VoiceInput",
    "default_sessions_dir", "live_asr_options",
]  # fmt: skip
