"""Where the person's voice comes from: a microphone, or recordings played as a virtual mic."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from coach.stream import AudioFrame


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
