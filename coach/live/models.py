"""The session's models, loaded once: the recogniser now, the LLM and voice in the background."""

from __future__ import annotations

import dataclasses
import logging
import os
import threading
from collections.abc import Callable

from coach.analysis import lexicon, syntax
from coach.asr import AsrOptions, Transcriber
from coach.errors import one_line
from coach.judging import ASKS_N_CTX, AnswerJudge, JudgeOptions
from coach.llm import ChatModel, LlmOptions
from coach.tts import Speaker, SpeechChunk, TtsOptions

logger = logging.getLogger(__name__)


def live_asr_options(model: str = "tiny.en", *, threads: int | None = None) -> AsrOptions:
    """Recogniser options for a live session: ``threads`` for each call (None: every core).

    Batch scoring runs one thread per core for throughput; live, one utterance at a time
    decides how soon the reply comes: tiny.en took 1.8 s on 7 s of speech with one
    thread and 1.3 s with two on the 2-core development machine. With the LLM running
    beside it, give it its share (:func:`session_threads`).
    """
    return AsrOptions(model=model, cpu_threads=threads or os.cpu_count() or 0)


def session_threads(*, with_llm: bool, cpus: int | None = None) -> tuple[int, int]:
    """Threads for the live recogniser and for the LLM, so that together they ask for no
    more than the cores.

    In a session with questions both run at once: the recogniser transcribes the talk and
    each answer utterance by utterance while the LLM prepares the next question. Two
    thread pools that each take every core make both wait on each other (2 x 2 threads on
    2 cores), so each gets its share: the recogniser the larger half, which decides how
    soon the reply comes. Without the LLM the recogniser gets every core.

    Args:
        with_llm: the LLM is loaded for this session.
        cpus: logical CPUs to share (None: ``os.cpu_count()``).

    Returns:
        ``(asr_threads, llm_threads)``; ``llm_threads`` is 0 without the LLM.
    """
    n = max(1, cpus or os.cpu_count() or 1)
    if not with_llm:
        return n, 0
    asr = max(1, (n + 1) // 2)
    return asr, max(1, n - asr)


class Models:
    """The models, loaded once: the recogniser now; the voice, the LLM and the audience's
    sentence parser and word list in the background.

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
        lines: tuple[str, ...] = (),
        ear: AsrOptions | None = None,
        judge: JudgeOptions | None = None,
        answer_judge: AnswerJudge | None = None,
        read_asks: bool = False,
    ) -> None:
        """Load the recogniser (unless given) and start the background load.

        Args:
            asr, llm, tts: what to load; ``llm``/``tts`` None for a session without them.
            transcriber, chat, speaker, answer_judge: models already loaded (used as they
                are).
            lines: fixed lines to synthesise once the voice is loaded (the audience's).
            ear: a second recogniser that hears the talk again for the audience (loaded
                first in the background); None to quote the live words.
            judge: the answer judge's model (loaded when first needed, by :meth:`judge`);
                None to judge answers by their words alone.
            read_asks: load the judge's model in the background too, after the LLM, with
                the LLM's threads and room for a talk, so that it reads the talk for its
                ask while it goes on (:meth:`asks_reader`).

        Raises:
            ModelError: the recogniser cannot be loaded.
        """
        self.transcriber = transcriber or Transcriber.load(asr)
        cpus = os.cpu_count() or 1
        self._quick_options = (
            dataclasses.replace(asr, cpu_threads=cpus)
            if transcriber is None and 0 < asr.cpu_threads < cpus
            else None
        )  # fmt: skip
        self._quick: Transcriber | None = None
        self.errors: dict[str, str] = {}
        self._llm: ChatModel | None = chat
        self._speaker: Speaker | None = speaker
        self.acks: dict[str, list[SpeechChunk]] = {}
        self._llm_options = llm
        self._tts_options = tts
        self._lines = lines
        self._ear_options = ear
        self._judge_options = judge
        self._judge: AnswerJudge | None = answer_judge
        self._read_asks = read_asks and (judge is not None or answer_judge is not None)
        self._ear: Transcriber | None = None
        self._ear_ready = threading.Event()
        if ear is None:
            self._ear_ready.set()
        self._thread = threading.Thread(target=self._load, name="coach-models", daemon=True)
        self._thread.start()

    def _load(self) -> None:
        """The background load; a model that fails (in any way) is noted in ``errors``."""
        if self._ear_options is not None:
            try:
                self._ear = Transcriber.load(self._ear_options)
            except Exception as exc:  # noqa: BLE001 - the live words stand in
                self.errors["audience asr"] = one_line(exc)
            finally:
                self._ear_ready.set()
        if self._speaker is None and self._tts_options is not None:
            try:
                self._speaker = Speaker.load(self._tts_options)
            except Exception as exc:  # noqa: BLE001 - questions shown as text
                self.errors["voice"] = one_line(exc)
        if self._speaker is not None:
            try:
                for text in self._lines:
                    self.acks[text] = list(self._speaker.speak(text))
            except Exception as exc:  # noqa: BLE001 - the lines are synthesised when said
                logger.warning("the voice could not say %r in advance: %s", text, one_line(exc))
        if self._llm is None and self._llm_options is not None:
            try:
                self._llm = ChatModel.load(self._llm_options)
            except Exception as exc:  # noqa: BLE001 - questions built from the talk
                self.errors["llm"] = one_line(exc)
        if self._read_asks and self._judge is None and self._judge_options is not None:
            threads = self._llm_options.threads if self._llm_options else 0
            try:  # read the talk for its ask while it goes on, with the LLM's share
                self._judge = AnswerJudge.load(self._judge_options, loaded=self._llm,
                                               n_ctx=ASKS_N_CTX, threads=threads)  # fmt: skip
            except Exception as exc:  # noqa: BLE001 - answers judged by their words
                self.errors["answer judge"] = one_line(exc)
        # the audience's sentence parser (about 1 s) and word list, not when the first
        # question is due; without them, quotes are checked by rule alone (said in the log)
        syntax.default_parser()
        lexicon.load()
        if self._quick_options is not None:
            try:
                self._quick = Transcriber.load(self._quick_options)
            except Exception as exc:  # noqa: BLE001 - the live recogniser hears answers
                logger.warning("the all-core recogniser did not load: %s", one_line(exc))

    def cancel_generation(self) -> None:
        """Stop the LLM's generation at its next token, without waiting for the load (a
        session ending); :meth:`resume_generation` allows it again."""
        for model in (self._llm, getattr(self._judge, "model", None)):
            if isinstance(model, ChatModel):
                model.cancel()

    def resume_generation(self) -> None:
        """Allow the LLM to generate again after :meth:`cancel_generation`."""
        for model in (self._llm, getattr(self._judge, "model", None)):
            if isinstance(model, ChatModel):
                model.resume()

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

    def quick_transcriber(self) -> Transcriber | None:
        """The live recogniser's model with every core (``cpu_threads`` = the CPUs), for
        the talk and answers heard while the LLM thread is idle, or None: not loaded yet, not needed
        (the live one has every core already), or it failed to load. Never waits.

        On two cores tiny.en took 0.67 s (p50) for an answer's last 4 s with two threads
        against 0.89 s with one; the follow-up waits for those words."""
        return None if self._thread.is_alive() else self._quick

    def has_ear(self) -> bool:
        """True when a second recogniser was asked for (loaded or not)."""
        return self._ear_options is not None

    def llm(self) -> ChatModel | None:
        """The chat model, or None if it did not load."""
        self.wait()
        return self._llm

    def judge(self, *, free_llm: bool = False) -> AnswerJudge | None:
        """The answer judge's model, loaded on first use (it is needed once the questions
        are over; loading it beside the talk delayed the first question), or None if none
        was asked for or it did not load (``errors`` says why).

        The session's LLM is the judge when they are one GGUF file (loaded once). With
        ``free_llm`` (the questions are over and the LLM thread is idle), an LLM that is
        not the judge is freed before the judge loads, so the two are never in memory
        together.
        """
        llm = self._llm
        if free_llm and self._judge is not None and llm is not None \
                and getattr(llm, "closed", True) is False \
                and getattr(self._judge, "model", None) is not llm:  # fmt: skip
            llm.close()  # loaded beside the talk's reader: freed once the questions are over
        if self._judge is None and self._judge_options is not None:
            if "answer judge" not in self.errors:
                llm = self.llm() if self._llm_options is not None else self._llm
                try:
                    self._judge = AnswerJudge.load(self._judge_options, loaded=llm,
                                                   free_loaded=free_llm)  # fmt: skip
                except Exception as exc:  # noqa: BLE001 - answers judged by their words
                    self.errors["answer judge"] = one_line(exc)  # said in the session's notes
        return self._judge

    def asks_reader(self) -> Callable[[str, threading.Event | None], float] | None:
        """The judge model's reading of a talk for its ask
        (:meth:`coach.judging.AnswerJudge.asks_listeners`) when it was loaded for it
        (``read_asks``), else None. Never waits. A reading with no cancel event is made
        once the talk is over: from then on the model has every core."""
        if not self._read_asks or self._thread.is_alive() or self._judge is None:
            return None
        judge = self._judge

        def read(transcript: str, cancel: threading.Event | None) -> float:
            model = getattr(judge, "model", None)
            if cancel is None and isinstance(model, ChatModel):
                model.set_threads(0)  # after the talk (nothing to stop it): every core
            return judge.asks_listeners(transcript, cancel=cancel)

        return read

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
        if self._judge is not None or self._judge_options is not None:
            name = self._judge_options.model if self._judge_options else ""
            judge = self._judge
            path = getattr(getattr(judge, "model", None), "path", "custom")
            out["answer judge"] = str(path) if judge else f"(not loaded) {name}"
        if sp is not None or self._tts_options is not None:
            name = self._tts_options.voice if self._tts_options else ""
            out["voice"] = str(sp.model_path) if sp else f"(not loaded) {name}"
        return out
