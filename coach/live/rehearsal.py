"""A rehearsal session: the talk at the mic, its report, then questions from an AI audience.

The loop, one part per module: frames from a :class:`VoiceInput` (a microphone, or files
played as a virtual mic) go to a :class:`coach.live.recorder.TalkRecorder`, which records,
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
  the turn ends, while the question is made ready;
* when the talk ends, the best question prepared during it begins at once: its quote of
  the talk ("You said ...", synthesised in advance) is said while the talk's last words
  are transcribed (a Whisper call costs about a second however short the audio), and the
  question itself follows once it is checked against them
  (:meth:`coach.audience.Audience.take_early`).

Everything goes into the session folder as it happens (audio, transcripts, report,
per-turn timings), so Ctrl-C, a crash or a vanished microphone leaves a usable session.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from coach.analysis.answers import AnswerJudgement, Relevance, judge_answer
from coach.analysis.asking import unsure_words
from coach.audience import Audience, Question, follow_up_lines
from coach.errors import CoachError, one_line
from coach.live.asker import Verdict
from coach.live.engine import Conversation
from coach.live.recorder import TalkRecorder
from coach.live.results import Exchange, TurnTiming
from coach.report import ClipReport, ReportWord
from coach.stream import DeviceError
from coach.transcript import Word

logger = logging.getLogger(__name__)

ACK_AFTER_TALK = "Thank you for the talk."
ACK_ANSWERED = ("Thank you.", "Okay, thanks.", "Got it, thank you.", "Thanks.")
ACK_DODGED = "Hmm."
ACK_NO_ANSWER = "No problem, let's move on."
CLOSING = "Thank you, those are all my questions."
NO_QUESTIONS = "Thank you for the talk. I have no questions."
ACKS = (ACK_AFTER_TALK, *ACK_ANSWERED, ACK_DODGED, ACK_NO_ANSWER, CLOSING, NO_QUESTIONS)
"""Lines coach itself says (no LLM); synthesised in advance."""


class AudienceAsker:
    """The AI audience as an :class:`Asker`: ``n`` questions about the talk; an answer that
    missed its question (:func:`coach.analysis.answers.judge_answer`: dodged, off the
    topic, or only part of it) gets one follow-up that names what it left out."""

    opening = ACK_AFTER_TALK
    opening_optional = True
    """The opening is said only while the first question is not ready yet."""
    closing = CLOSING
    no_questions = NO_QUESTIONS
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
        q = self.audience.next_question(optional=True)
        self._asked += 1
        return q

    def judge_context(self, exchange: Exchange) -> str:
        plan = self.audience.plan_for(exchange.question)
        if plan is None:
            return "A question from the audience after a talk."
        return f'A question from the audience after a talk, about this point: "{plan.claim.text}"'

    def judgement(
        self, exchange: Exchange, support: float | None = None, on_subject: float | None = None,
        relevance: Relevance | None = None,
    ) -> AnswerJudgement:  # fmt: skip
        q, answer = exchange.question, exchange.answer
        plan = self.audience.plan_for(q)
        context = plan.claim.text if plan else self.audience.transcript
        return judge_answer(q.spoken_text, answer.transcript if answer else "",
                            min_words=self.min_words, support=support, on_subject=on_subject,
                            relevance=relevance, context=context)  # fmt: skip

    def judge(self, exchange: Exchange) -> Verdict:
        q, answer = exchange.question, exchange.answer
        text = answer.transcript if answer else ""
        j = self.judgement(exchange)
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
    """What the audience says the moment an answer missed its question: short (under a
    second with the shipped voice: "Not quite." 0.80 s, "Not really." 0.81 s, "Hmm."
    0.33 s), so the follow-up itself, which asks for what was missing, is heard within
    two seconds of the end of the answer ("That's a different point." took 1.31 s, and
    follow-ups after it were heard 2.2-2.3 s after the decision)."""
    if verdict == "partial":
        return "Not quite."
    if verdict == "off_topic":
        return "Not really."
    return ACK_DODGED


class Rehearsal(Conversation):
    """A talk, its report, then the audience's questions; see the module docstring."""

    kind = "rehearse"

    def __init__(self, *args: Any, script_text: str | None = None, **kwargs: Any) -> None:
        """Args as :class:`Conversation`'s; ``script_text``: the talk's script (its key
        points are checked for coverage), or None."""
        super().__init__(*args, **kwargs)
        self.script_text = script_text
        self._audience: Audience | None = None
        """The audience, made during the talk once the LLM is loaded, to prepare questions."""
        self._prep: concurrent.futures.Future[object] | None = None
        self._prep_heard = 0
        self._heard_words: list[Word] = []
        """The talk as the audience heard it (its own recogniser where it caught up; empty
        until the talk ends)."""
        self._disputed: list[tuple[str, str, str]] = []
        """Heard words the live recogniser wrote otherwise (not quoted back)."""

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
            self._audience = Audience(llm, "", self.options.audience, script=self.script_text,
                                      asks=self.models.asks_reader())  # fmt: skip
            self._prep = self._pool.submit(self._audience.warm_up)
            return
        heard = recorder.heard_count()
        if heard == self._prep_heard:
            return
        self._prep_heard = heard
        audience, words = self._audience, recorder.heard_words()
        text = " ".join(w.text.strip() for w in words)

        def job() -> None:  # a candidate, and its speech, made while the talk goes on
            q = audience.prepare(text, limit=2 * self.options.questions + 1,
                                 unsure=_unsure(words) + recorder.disputed())  # fmt: skip
            speaker = self.models.speaker()
            if q is not None and speaker is not None:
                self.voice.prepare(q.spoken_text, speaker)

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

    def _begin_first_question(self) -> None:
        """The talk just ended, its last utterance not transcribed yet: say the quote of
        the best question prepared during the talk now, if there is one (the question
        itself is said once checked against the whole talk)."""
        if self.options.questions <= 0 or self._audience is None or not self.models.loaded():
            return
        speaker = self.models.speaker()
        if speaker is None:
            return
        self._end_preparation()
        q = self._audience.take_early()
        if q is None:
            return
        self.voice.speaker = speaker
        self._begin(q)

    def _body(self) -> None:
        talk = self._talk()
        if talk is None or self.result.status != "running" or self.options.questions <= 0:
            return
        llm = self._models_for_questions()
        if llm is None:
            self.events.note("questions are built from the talk's claims (no LLM)")
        self._end_preparation()
        if self._heard_words:
            heard = " ".join(w.text.strip() for w in self._heard_words)
            unsure = _unsure(self._heard_words) + self._disputed
        else:
            heard, unsure = talk.transcript, _unsure(talk.words)
        audience = self._audience or Audience(
            llm,
            heard,
            self.options.audience,
            script=self.script_text,
            asks=self.models.asks_reader(),
        )
        audience.update(heard, unsure=unsure)
        asker = AudienceAsker(audience, self.options.questions,
                              min_words=self.options.min_answer_words)  # fmt: skip
        # the talk's HTML and Markdown pages (charts: about 1.5 s) are written beside the
        # questions, from a copy holding the talk only; the final pages replace them
        talk_only = dataclasses.replace(self.result, exchanges=[], timings=[])

        def write_pages() -> None:
            try:
                self.folder.write_pages(talk_only)
            except Exception as exc:  # noqa: BLE001 - written again at the end
                logger.debug("the talk's pages", exc_info=True)
                self.result.notes.append(f"the talk's report pages: {one_line(exc)}")

        pages = threading.Thread(target=write_pages, name="coach-pages")
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
            quick=self._quick_recogniser,
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
        except BaseException:
            recorder.close()  # talk.wav stays readable
            raise
        decided = time.monotonic()
        self.events.end_phase()
        self.events.note(f"talk ended ({ended_by}): {recorder.received_s:.1f} s recorded")
        if res.status == "running":
            self._begin_first_question()
        report = recorder.finish(file=str(self.folder.file("talk.wav")))
        transcript_ready = time.monotonic()
        # what the audience quotes: the talk heard again by its recogniser, as far as it got
        recorder.stop_hearing(wait_s=opts.ear_wait_s if self.input.realtime else 600.0)
        self._heard_words = recorder.heard_words()
        self._disputed = recorder.disputed()
        res.talk = report
        self._talk_timing = TurnTiming(
            0, "talk", decided_s=self.rel(decided), transcript_s=self.rel(transcript_ready),
            speech_end_s=self._speech_end(recorder, decided),
            quick_utterances=recorder.quick_utterances,
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


def _unsure(words: Iterable[Word | ReportWord]) -> list[tuple[str, str, str]]:
    """The words the recogniser was unsure of, with their neighbours: the audience does not
    quote them back."""
    return unsure_words([(w.text, w.probability) for w in words])
