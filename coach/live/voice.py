"""The asking side's voice in a session: lines and questions spoken through the sink.

:class:`Voice` plays speech on an :class:`coach.sinks.AudioSink` and writes what it said
to the session's transcript. Speech made in advance is used when there is some: the fixed
lines (acknowledgements) synthesised by the model loader, and questions prepared during
the talk; anything else is synthesised as it is said. Without a voice the sink still gets
each line, as a beat of silence carrying its text.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import numpy as np

from coach import SAMPLE_RATE
from coach.live.folder import SessionFolder
from coach.sinks import AudioSink
from coach.tts import Speaker, SpeechChunk


class Voice:
    """Speaks for the asking side; times are session seconds (since ``t0``)."""

    def __init__(
        self,
        sink: AudioSink,
        folder: SessionFolder,
        *,
        who: str,
        lines: dict[str, list[SpeechChunk]] | None = None,
        t0: float | None = None,
    ) -> None:
        """Args:
        sink: where speech goes (a speaker, a wav, the terminal).
        folder: the session folder (``transcript.md``).
        who: how the asking side is named in the transcript ("audience").
        lines: fixed lines synthesised in advance, by text (filled in as they are made).
        t0: the session's start, time.monotonic() (None: now).
        """
        self.sink = sink
        self.folder = folder
        self.who = who
        self.lines = lines if lines is not None else {}
        self.t0 = time.monotonic() if t0 is None else t0
        self.speaker: Speaker | None = None
        """The voice, once the questions start (None: none loaded, speech as text only)."""
        self._prepared: dict[str, list[SpeechChunk]] = {}

    def prepare(self, text: str, speaker: Speaker) -> None:
        """Synthesise ``text`` now (a question prepared during the talk) for later."""
        self._prepared[text] = list(speaker.speak(text))

    def synthesise(self, lines: Iterable[str]) -> None:
        """Synthesise the fixed ``lines`` not made yet (with the voice, if there is one)."""
        speaker = self.speaker
        for text in lines:
            if speaker is not None and text not in self.lines:
                self.lines[text] = list(speaker.speak(text))

    def peek(self, text: str) -> list[SpeechChunk] | None:
        """The speech of ``text`` if it was prepared in advance (left for
        :meth:`chunks_for`), else None."""
        return self._prepared.get(text)

    def chunks_for(self, text: str) -> list[SpeechChunk] | None:
        """The speech of ``text``: prepared in advance, else synthesised now (None: no
        voice)."""
        chunks = self._prepared.pop(text, None)
        if chunks is None and self.speaker is not None:
            chunks = list(self.speaker.speak(text))
        return chunks

    def speak(
        self, text: str, chunks: list[SpeechChunk] | None = None, *, written: str | None = None
    ) -> float | None:
        """Speak ``text`` (or its ``chunks`` synthesised in advance, or the fixed line's
        speech when ``text`` is one of :attr:`lines`). ``written``: what
        the session's transcript gets for it (None: ``text``; "": nothing, as for the
        first part of a line written whole when its last part is said).

        Returns:
            When its first audio went out, session seconds (None: the sink gave no time).
        """
        speaker = self.speaker
        if chunks is None:  # a fixed line (a plain follow-up) is synthesised in advance
            chunks = self.lines.get(text)
        if speaker is None:  # no voice: the sink still gets the text (a beat of silence)
            silence = np.zeros(SAMPLE_RATE // 10, np.int16)
            spoken: Iterable[SpeechChunk] = [SpeechChunk(text, silence, SAMPLE_RATE, 0.0)]
        else:
            spoken = chunks if chunks is not None else speaker.speak(text)
        first: float | None = None
        for chunk in spoken:
            t = self.sink.play(chunk)
            if first is None:
                first = t - self.t0
        if written != "":
            line = text if written is None else written
            self.folder.append_line("transcript.md", f"\n**{self.who.capitalize()}:** {line}")
        return first

    def say_line(self, text: str) -> tuple[float | None, float | None]:
        """Say a fixed line, synthesised in advance where it was.

        Returns:
            ``(first_audio_s, heard_s)``: when its audio started and when it will have
            been heard, session seconds.
        """
        chunks = self.lines.get(text)
        t = self.speak(text, chunks)
        if t is None or chunks is None:
            return t, t
        return t, t + sum(c.duration_s for c in chunks)

    def drain(self) -> None:
        """Wait until what was said has been heard."""
        self.sink.drain()

    def close(self) -> None:
        """Close the sink."""
        self.sink.close()
