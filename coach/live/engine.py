"""The engine of a spoken session: listen, judge, speak, time and save each turn.

:class:`Conversation` runs the turns; what is asked and what an answer is worth come
from an :class:`coach.live.asker.Asker` (the audience of :mod:`coach.live.rehearsal`, an
interviewer). See :mod:`coach.live.rehearsal` for how a session answers quickly.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import datetime as dt
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from coach.asr import Transcriber
from coach.audience import Question
from coach.errors import one_line
from coach.live.asker import Asker, Verdict
from coach.live.events import Events, QuietEvents
from coach.live.folder import SessionFolder
from coach.live.inputs import VoiceInput
from coach.live.models import Models
from coach.live.options import RehearseOptions
from coach.live.recorder import TalkRecorder
from coach.live.results import Exchange, SessionResult, TurnTiming
from coach.live.voice import Voice
from coach.llm import ChatModel
from coach.sinks import AudioSink
from coach.stream import DeviceError
from coach.tts import SpeechChunk

logger = logging.getLogger(__name__)


class Worker(concurrent.futures.Executor):
    """The session's one thread for the LLM and the voice, with a bounded queue.

    At most ``bound`` jobs wait or run at once; :meth:`submit` blocks while it is full. The
    engine keeps two or three in flight (the next question, a candidate prepared during
    the talk, the lines to synthesise), so the bound only stops a runaway from piling up
    work that would delay the end of the session.
    """

    def __init__(self, bound: int = 4) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="coach-llm")
        self._slots = threading.BoundedSemaphore(bound)
        self._pending = 0
        self._lock = threading.Lock()

    @property
    def idle(self) -> bool:
        """True while no job waits or runs (the LLM and the voice leave the cores free)."""
        with self._lock:
            return self._pending == 0

    def _release(self) -> None:
        """A job is over (or never started): one less pending, its slot free."""
        with self._lock:
            self._pending -= 1
        self._slots.release()

    def submit(  # type: ignore[override]
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        """Queue ``fn(*args, **kwargs)``; waits while ``bound`` jobs are queued or running."""
        self._slots.acquire()
        with self._lock:
            self._pending += 1
        try:
            future = self._pool.submit(fn, *args, **kwargs)
        except BaseException:
            self._release()
            raise
        future.add_done_callback(lambda _f: self._release())
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the thread (queued jobs dropped with ``cancel_futures``)."""
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


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


@dataclass
class _Begun:
    """A question whose first sentences were said before its turn came (the talk's first
    question: its quote, said while the talk's last words are transcribed)."""

    spoken_text: str
    """The question as it was prepared, lead-in and question."""
    lead_in: str
    """What was said of it."""
    first_audio_s: float | None
    """When that went out, session seconds."""


def _parted(
    chunks: list[SpeechChunk] | None, head: str
) -> tuple[list[SpeechChunk], list[SpeechChunk]] | None:
    """The speech of a text cut after its first sentences ``head``: (their chunks, the
    rest's), or None when there is no speech or its sentences do not end where ``head``
    does."""
    items, said = chunks or [], ""
    for i, chunk in enumerate(items):
        said = " ".join(f"{said} {chunk.text}".split())
        if said == " ".join(head.split()):
            return items[: i + 1], items[i + 1 :]
    return None


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
        options: RehearseOptions | None = None,
        *,
        events: Events | None = None,
        started_at: float | None = None,
    ) -> None:
        self.input = voice_input
        self.models = models
        self.folder = folder
        self.options = options or RehearseOptions()
        self.events = events or QuietEvents()
        self.t0 = time.monotonic() if started_at is None else started_at
        self.result = SessionResult(
            folder.path, kind=self.kind, started=dt.datetime.now().isoformat(timespec="seconds")
        )
        self._stop = threading.Event()
        self._asker: Asker | None = None
        self._pool = Worker()
        self.voice = Voice(sink, folder, who=self.who, lines=models.acks, t0=self.t0)
        """The asking side's voice (its speaker is set once the questions start)."""
        self._begun: _Begun | None = None
        """The first question, begun before its turn (set by a subclass), else None."""

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
        """Run the session; the folder is complete whatever happens.

        Raises:
            Exception: whatever stopped the session other than Ctrl-C or a lost device (a
                failed recogniser thread, an audio output that failed...), after the
                folder is saved with status "failed" and the reason in its notes.
        """
        res = self.result
        self._save()
        failure: BaseException | None = None
        try:
            self._body()
            if res.status == "running":
                self._weigh_answers()
                res.status = "complete"
        except KeyboardInterrupt:
            res.status = "interrupted"
            res.notes.append("stopped with Ctrl-C: everything so far is saved")
        except DeviceError as exc:
            res.status = "device_lost"
            res.notes.append(str(exc))
        except BaseException as exc:
            failure = exc
            res.status = "failed"
            res.notes.append(f"stopped by an error: {one_line(exc)}")
            raise
        finally:
            self._close(failure)
        return res

    def _close(self, failure: BaseException | None) -> None:
        """Stop the worker (the LLM stops between two tokens), close the devices and save
        everything; what fails here is noted, and raised only if nothing failed before."""
        res = self.result
        self.events.end_phase()
        self.models.cancel_generation()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self.models.resume_generation()
        for what, close in (("audio output", self.voice.close), ("audio input", self.input.close)):
            try:
                close()
            except Exception as exc:  # noqa: BLE001 - the session is over; noted
                res.notes.append(f"{what}: {one_line(exc)}")
        errors: list[Exception] = []
        for step in (self._finish, lambda: self._save(pages=True)):
            try:
                step()
            except Exception as exc:  # noqa: BLE001 - the next step still runs
                logger.debug("closing the session", exc_info=True)
                errors.append(exc)
        if errors and failure is None:
            raise errors[0]

    def _body(self) -> None:
        raise NotImplementedError

    def _finish(self) -> None:
        """Last words on the result before it is saved (the interview's practice list)."""

    def _save(self, *, pages: bool = False) -> None:
        """Write report.json (after every step); with ``pages`` the HTML and Markdown too."""
        self.result.models = self.models.names()
        self.folder.write_report(self.result)
        if pages:
            self.folder.write_pages(self.result)

    def _models_for_questions(self) -> ChatModel | None:
        """Wait for the LLM and voice; note any that did not load. Returns the LLM."""
        res = self.result
        llm = self.models.llm()
        self.voice.speaker = self.models.speaker()
        for what, why in self.models.errors.items():
            res.notes.append(f"{what}: {why}")
            self.events.note(f"{what} not available: {why}")
        return llm

    # -- questions and answers -------------------------------------------------------------

    def _qa(self, asker: Asker, timing: TurnTiming) -> None:
        """The question-and-answer loop; see the module docstring for the timing tricks."""
        res = self.result
        self._asker = asker
        upcoming: concurrent.futures.Future[_Reply | None] | None = self._prepare(asker)
        if self.voice.speaker is not None:  # after the first question: it may be ready at once
            self._pool.submit(self.voice.synthesise, asker.lines)
        # a question prepared in advance is asked at once; else the opening fills in (a
        # question begun goes on with no line between)
        if self._begun is None:
            try:
                if not asker.opening_optional:
                    raise concurrent.futures.TimeoutError
                upcoming.result(timeout=self.options.opening_wait_s)
            except concurrent.futures.TimeoutError:
                self._speak_ack(asker.opening, timing)
        reply = self._await(upcoming, timing)  # type: ignore[arg-type]
        if reply is None:  # nothing worth asking (a toast, a story with no claim)
            timing.reply = "closing"
            self._speak_ack(asker.no_questions, timing)
            self._log_turn(timing)
            return
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

    def _weigh_answers(self) -> None:
        """Once the questions are over, the judge model reads every answer again and each
        judgement is made anew with its readings (the words alone decided the follow-ups,
        at once; the model takes several seconds an answer on two cores, too slow between
        turns). Nothing changes unless every answer was read."""
        asker = self._asker
        answered = [
            e for e in self.result.exchanges
            if e.judgement is not None and e.answer and e.answer.transcript.strip()
        ]  # fmt: skip
        if asker is None or not answered:
            return
        started = time.monotonic()
        self._idle()  # then the question model can be freed before the judge loads
        judge = self.models.judge(free_llm=True)
        if judge is None:
            if why := self.models.errors.get("answer judge"):
                self.result.notes.append(f"answers judged by their words alone: {why}")
            return
        self.events.note(f"the judge model reads the {len(answered)} answers again")
        model = getattr(judge, "model", None)
        if isinstance(model, ChatModel):  # loaded to read the talk beside the recogniser
            model.set_threads(0)  # now every core
        pairs = [(asker.judge_context(e), e.question.spoken_text, e.answer.transcript)  # type: ignore[union-attr]
                 for e in answered]  # fmt: skip
        try:  # one kind of reading at a time: each keeps its instructions in the model's cache
            supports = [judge.support(*pair) for pair in pairs]
            gains = [judge.relevance(*pair) for pair in pairs]
            judged = []
            for ex, pair, support, gain in zip(answered, pairs, supports, gains, strict=True):
                j = asker.judgement(ex, support, relevance=gain)
                if not j.addressed and j.verdict in ("partial", "off_topic"):
                    subject = judge.support(*pair, ask="on_subject")
                    j = asker.judgement(ex, support, subject, relevance=gain)
                judged.append(j)
        except Exception as exc:  # noqa: BLE001 - the words' judgements stand, all of them
            self.result.notes.append(f"answer judge model: {one_line(exc)}")
            return
        changed = 0
        for ex, j in zip(answered, judged, strict=True):
            assert ex.judgement is not None
            if j.verdict != ex.judgement.verdict:
                changed += 1
                j = dataclasses.replace(j, reason=f"{j.reason} (during the session, by the "
                                        f"words alone: {ex.judgement.verdict})")  # fmt: skip
            ex.judgement = j
        self.result.notes.append(
            f"answers judged again with the judge model (its odds and the question's gain): "
            f"{changed} of {len(answered)} verdicts changed ({time.monotonic() - started:.1f} s, "
            "model load included)"
        )

    def _idle(self) -> None:
        """Wait until the LLM thread is idle: a candidate still being generated stops at
        its next token, queued jobs (lines to synthesise) run to their end."""
        self.models.cancel_generation()
        try:
            self._pool.submit(lambda: None).result()  # one thread: every job before it is done
        finally:
            self.models.resume_generation()

    def _log_turn(self, timing: TurnTiming) -> None:
        self.result.timings.append(timing)
        self.folder.log_turn(timing)

    def _prepare(self, asker: Asker) -> concurrent.futures.Future[_Reply | None]:
        """Generate the next new question, and synthesise it, on the LLM thread."""

        def job() -> _Reply | None:
            question = asker.next_question()
            if question is None:
                return None
            return _Reply(question, self.voice.chunks_for(question.spoken_text))

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
            t = self.voice.speak(item)
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
            t = self.voice.speak(sentence)
            if timing.first_audio_s is None:
                timing.first_audio_s = t
            said.append(sentence)
        exchange.reply = " ".join(said)
        if said:
            self.events.say(self.who, exchange.reply)

    who = "audience"
    """How the asking side is named in the transcript and the terminal."""

    def _begin(self, q: Question) -> None:
        """Say ``q``'s lead-in now, ahead of its turn (its speech as prepared in advance,
        if it was); :meth:`_speak_reply` says the rest when the question comes."""
        parts = _parted(self.voice.peek(q.spoken_text), q.lead_in)
        first = self.voice.speak(q.lead_in, parts[0] if parts else None, written="")
        self._begun = _Begun(q.spoken_text, q.lead_in, first)

    def _speak_reply(self, reply: _Reply, timing: TurnTiming) -> None:
        if reply.spoken:
            return  # a follow-up is spoken while it is generated
        timing.reply = timing.reply or reply.question.kind
        q = reply.question
        text = q.spoken_text
        begun, self._begun = self._begun, None
        if begun is not None and q.lead_in == begun.lead_in:  # the rest of a question begun
            parts = _parted(reply.chunks, q.lead_in) if text == begun.spoken_text else None
            timing.question_sentence_audio_s = self.voice.speak(
                q.text, parts[1] if parts else None, written=text
            )
            timing.question_audio_s = timing.first_audio_s = begun.first_audio_s
        else:
            timing.question_audio_s = self.voice.speak(text, reply.chunks)
        self.events.say(self.who, text)

    def _speak_ack(self, text: str, timing: TurnTiming) -> float | None:
        """Say a fixed line; returns when it will have been heard, session seconds."""
        t, heard = self.voice.say_line(text)
        if timing.first_audio_s is None:
            timing.first_audio_s = t
        self.events.say(self.who, text)
        return heard

    def _speech_end(self, recorder: TalkRecorder, decided: float) -> float | None:
        """When the person stopped speaking, session seconds (None: not paced in real time)."""
        return self.rel(recorder.speech_end_at(decided)) if self.input.realtime else None

    def _listen(self, index: int, exchange: Exchange, timing: TurnTiming) -> bool | None:
        """Record and judge one answer; None if there is no answer to record."""
        opts = self.options
        if self.input.realtime:  # the answer starts once the question has been heard
            self.voice.drain()
        self._stop.clear()
        frames = self.input.answer(index, self._stop)
        if frames is None:
            return None
        name = f"answers/answer_{exchange.index:02d}.wav"
        recorder = TalkRecorder(
            self.models.transcriber,
            opts.answer_live,
            wav_path=self.folder.file(name),
            quick=self._quick_recogniser,
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
        except BaseException:
            recorder.close()  # the answer's wav stays readable
            raise
        self._finish_answer(recorder, exchange, name, timing, time.monotonic())
        return True

    def _quick_recogniser(self) -> Transcriber | None:
        """The recogniser with every core, while the LLM thread is idle (the next question
        is ready): the last words of an answer or of the talk are what the next question
        waits for; None while the LLM or the voice needs its share of the cores."""
        return self.models.quick_transcriber() if self._pool.idle else None

    def _finish_answer(
        self, recorder: TalkRecorder, exchange: Exchange, name: str, timing: TurnTiming,
        decided: float,
    ) -> None:  # fmt: skip
        self.events.end_phase()
        report = recorder.finish(file=str(self.folder.file(name)))
        timing.quick_utterances = recorder.quick_utterances
        timing.decided_s = self.rel(decided)
        timing.transcript_s = self.now()
        timing.speech_end_s = self._speech_end(recorder, decided)
        exchange.answer_file = name
        exchange.answer = report
        self.events.say("you", report.transcript or "(no answer heard)")
        self.folder.append_line("transcript.md", f"\n**You:** {report.transcript or '(no answer)'}")
