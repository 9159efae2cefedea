"""The session's models, loaded once: the recogniser now, the LLM and voice in the background."""

from __future__ import annotations

import os
import threading

from coach.asr import AsrOptions, Transcriber
from coach.errors import CoachError
from coach.llm import ChatModel, LlmOptions
from coach.tts import Speaker, SpeechChunk, TtsOptions


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
        lines: tuple[str, ...] = (),
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
