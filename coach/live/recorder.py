"""Live capture of a talk: record, segment, transcribe as it goes, show live figures.

:class:`TalkRecorder` takes audio frames (from a microphone or the virtual mic), keeps the
recording (and writes it to a wav as it goes, so Ctrl-C or a vanished device loses
nothing), cuts utterances with the endpointer, and transcribes each one on a worker thread
while the person keeps talking. Frame tracks (pitch, loudness) are computed in blocks the
same way. When the talk ends, only the last utterance is left to transcribe, and the
report comes from the same :func:`coach.score.analyze` that `coach score` uses.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from coach import SAMPLE_RATE
from coach.analysis import fillers, prosody
from coach.asr import Transcriber
from coach.endpoint import Endpointer, EndpointOptions, Utterance
from coach.errors import CoachError, one_line
from coach.report import ClipReport
from coach.score import Measured, ScoreOptions, analyze
from coach.stream import AudioFrame
from coach.transcript import Word, split_words
from coach.vad import voice_flags

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LiveOptions:
    """Options of live capture."""

    score: ScoreOptions = field(default_factory=ScoreOptions)
    """Analysis options, the same as `coach score`'s."""
    endpoint: EndpointOptions = field(default_factory=EndpointOptions)
    """Utterance segmentation (hangover etc.)."""
    feature_block_s: float = 9.99
    """Audio is measured for pitch and loudness in blocks of about this many seconds
    (a whole number of 30 ms frames)."""
    recent_window_s: float = 30.0
    """The live pace is measured over the last this many seconds of transcribed speech."""
    min_recent_words: int = 10
    """Fewer lexical words than this in the window: no live pace and no nudge."""


@dataclass(frozen=True)
class LiveStatus:
    """What the live display shows, about once a second."""

    elapsed_s: float
    """Audio received so far, seconds."""
    words: int
    """Lexical words transcribed so far."""
    recent_wpm: float | None
    """Pace over the recent window, words per minute (None until enough words)."""
    fillers: int
    """Fillers found in the transcript so far."""
    last_filler: str | None
    """The most recent filler's text."""
    last_long_pause: tuple[float, float] | None
    """(start_s, end_s) of the most recent long silent pause."""
    silence_s: float
    """How long the speaker has been silent right now, seconds."""
    speaking: bool
    """The voice is on right now."""
    pending_s: float
    """Speech waiting for transcription, seconds (how far the transcript lags)."""
    nudge: str | None
    """A short hint when the recent pace leaves the band, else None."""


class TalkRecorder:
    """Record and measure a talk frame by frame; see the module docstring."""

    def __init__(
        self,
        transcriber: Transcriber,
        options: LiveOptions = LiveOptions(),
        *,
        wav_path: Path | None = None,
        ear: Callable[[], Transcriber | None] | None = None,
        quick: Callable[[], Transcriber | None] | None = None,
    ) -> None:
        """Args:
        transcriber: the live recogniser (words, timings, the live figures).
        options: live settings.
        wav_path: where the talk is written as it comes.
        ear: gives a second, more accurate recogniser once it is loaded (or None yet):
            every utterance is heard again by it on a thread of its own, for what the
            audience quotes back (:meth:`heard_text`); the report keeps the live words.
        quick: gives, when asked before each utterance, a recogniser of the same model
            that may use every core (None while the cores are needed elsewhere): the
            words are ready sooner while nothing else runs.
        """
        import webrtcvad

        self.options = options
        self._transcriber = transcriber
        vad_opts = options.score.vad
        self._vad = webrtcvad.Vad(vad_opts.aggressiveness)
        self._frame_s = vad_opts.frame_ms / 1000
        self._endpointer = Endpointer(options.endpoint, vad_opts)
        self._flags: list[bool] = []
        self._feature_frames: list[AudioFrame] = []
        self._feature_flags: list[bool] = []
        self._block_frames = max(1, int(options.feature_block_s / self._frame_s))
        self._received_s = 0.0
        self._silence_run_s = 0.0
        self._had_speech = False
        self._last_long_pause: tuple[float, float] | None = None
        self._lock = threading.Lock()
        self._words: list[Word] = []
        self._tracks: list[prosody.Tracks] = []
        self._pending_speech_s = 0.0
        self._jobs: queue.Queue[tuple[str, object] | None] = queue.Queue()
        self._error: BaseException | None = None
        self._timings = {"features_s": 0.0, "asr_s": 0.0}
        self._ended_at: float | None = None  # time.perf_counter() when finish() began
        self._wav = None
        if wav_path is not None:
            import soundfile as sf

            wav_path.parent.mkdir(parents=True, exist_ok=True)
            self._wav = sf.SoundFile(wav_path, "w", SAMPLE_RATE, 1, subtype="PCM_16")
        self._worker = threading.Thread(target=self._work, name="coach-live", daemon=True)
        self._worker.start()
        self._finished = False
        self.utterances: list[tuple[float, float, float]] = []
        """(start_s, speech_end_s, decided_s) of every utterance cut so far."""
        self.transcribed_at: dict[float, float] = {}
        """Utterance start_s -> wall-clock time (time.monotonic) its words were ready."""
        self._utt_words: dict[float, list[Word]] = {}
        self._ear = ear
        self._quick = quick
        self.quick_utterances = 0
        """Utterances heard by the ``quick`` recogniser."""
        self._ear_words: dict[float, list[Word]] = {}
        self._ear_jobs: queue.Queue[Utterance | None] = queue.Queue()
        self._ear_idle = threading.Event()
        self._ear_idle.set()
        self._ear_worker: threading.Thread | None = None
        if ear is not None:
            self._ear_worker = threading.Thread(target=self._hear_again, name="coach-ear",
                                                daemon=True)  # fmt: skip
            self._ear_worker.start()

    # -- input ---------------------------------------------------------------------------

    def feed(self, frame: AudioFrame) -> list[Utterance]:
        """Take the next frame; returns utterances that closed on it (already queued)."""
        if self._finished:
            raise RuntimeError("TalkRecorder.feed after finish()")
        self._raise_worker_error()
        if self._wav is not None:
            self._wav.write(frame.samples)
            if len(self._flags) % 33 == 0:  # about once a second: header and data on disk
                self._wav.flush()
        is_speech = self._vad.is_speech(frame.samples.tobytes(), SAMPLE_RATE)
        self._flags.append(is_speech)
        self._track_silence(frame, is_speech)
        self._feature_frames.append(frame)
        self._feature_flags.append(is_speech)
        if len(self._feature_frames) >= self._block_frames:
            self._queue_features()
        closed = self._endpointer.push(frame, is_speech)
        for utt in closed:
            self._queue_utterance(utt)
        self._received_s = frame.end_s
        return closed

    def _track_silence(self, frame: AudioFrame, is_speech: bool) -> None:
        if is_speech:
            long_s = self.options.score.pauses.long_pause_s
            if self._had_speech and self._silence_run_s >= long_s:
                self._last_long_pause = (round(frame.start_s - self._silence_run_s, 2),
                                         round(frame.start_s, 2))  # fmt: skip
            self._silence_run_s = 0.0
            self._had_speech = True
        else:
            self._silence_run_s += frame.duration_s

    def _queue_features(self) -> None:
        if not self._feature_frames:
            return
        samples = np.concatenate([f.samples for f in self._feature_frames])
        flags = np.array(self._feature_flags, bool)
        self._jobs.put(("features", (samples, flags)))
        self._feature_frames, self._feature_flags = [], []

    def _queue_utterance(self, utt: Utterance) -> None:
        with self._lock:
            self._pending_speech_s += utt.duration_s
        self.utterances.append((utt.start_s, utt.speech_end_s, utt.decided_s))
        self._jobs.put(("asr", utt))
        if self._ear_worker is not None:
            self._ear_idle.clear()
            self._ear_jobs.put(utt)

    def _hear_again(self) -> None:
        """The ear's thread: each utterance heard again by the second recogniser (skipped
        while it is not loaded yet; a failure leaves the live words in place)."""
        while True:
            utt = self._ear_jobs.get()
            if utt is None:
                return
            ear = self._ear() if self._ear is not None else None
            if ear is not None:
                try:
                    words = ear.transcribe(utt.float32(), offset_s=utt.samples_start_s)
                    with self._lock:
                        self._ear_words[utt.start_s] = split_words(words)
                except Exception as exc:  # noqa: BLE001 - the live words stand in
                    logger.warning("the audience's recogniser failed on an utterance: %s",
                                   one_line(exc))  # fmt: skip
                    logger.debug("the audience's recogniser failed", exc_info=True)
            if self._ear_jobs.empty():
                self._ear_idle.set()

    # -- worker --------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            kind, payload = job
            try:
                t0 = time.perf_counter()
                if kind == "features":
                    samples, flags = payload  # type: ignore[misc]
                    audio = samples.astype(np.float32) / 32768.0
                    voice = voice_flags(audio, flags, options=self.options.score.vad)
                    tracks = prosody.frame_tracks(
                        audio, voice,
                        vad_frame_s=self._frame_s, options=self.options.score.prosody,
                    )  # fmt: skip
                    with self._lock:
                        self._tracks.append(tracks)
                        self._timings["features_s"] += time.perf_counter() - t0
                        self._after_end("features", t0)
                else:
                    utt: Utterance = payload  # type: ignore[assignment]
                    quick = self._quick() if self._quick is not None else None
                    words = (quick or self._transcriber).transcribe(
                        utt.float32(), offset_s=utt.samples_start_s
                    )
                    with self._lock:
                        self.quick_utterances += quick is not None
                        self._utt_words[utt.start_s] = split_words(words)
                        self._words.extend(self._utt_words[utt.start_s])
                        self._pending_speech_s -= utt.duration_s
                        self._timings["asr_s"] += time.perf_counter() - t0
                        self._after_end("asr", t0)
                    self.transcribed_at[utt.start_s] = time.monotonic()
            except BaseException as exc:  # surfaced on the next feed()/finish()
                logger.debug("live worker failed", exc_info=True)
                self._error = exc
                return

    def _after_end(self, kind: str, started: float) -> None:
        """Add the part of a job that ran after the talk ended to ``after_end_<kind>_s``
        (what the first question waits for; the caller holds ``_lock``)."""
        if self._ended_at is not None:
            spent = time.perf_counter() - max(started, self._ended_at)
            key = f"after_end_{kind}_s"
            self._timings[key] = self._timings.get(key, 0.0) + max(0.0, spent)

    def _raise_worker_error(self) -> None:
        """Raise what stopped the worker thread, as a one-line :class:`CoachError`."""
        exc = self._error
        if exc is None:
            return
        if isinstance(exc, CoachError | KeyboardInterrupt):
            raise exc
        raise CoachError(f"live transcription failed: {one_line(exc)}") from exc

    # -- output --------------------------------------------------------------------------

    def transcript_so_far(self) -> str:
        """The words transcribed so far, as text (utterances still queued are missing)."""
        with self._lock:
            words = sorted(self._words, key=lambda w: w.start_s)
        return " ".join(w.text.strip() for w in words if w.text.strip())

    def heard_words(self) -> list[Word]:
        """The talk's words as the audience heard them: each utterance in the second
        recogniser's words where it has heard it again, else in the live words."""
        with self._lock:
            starts = sorted(self._utt_words)
            parts = [self._ear_words.get(s, self._utt_words[s]) for s in starts]
        return [w for ws in parts for w in ws if w.text.strip()]

    def disputed(self) -> list[tuple[str, str, str]]:
        """Words of :meth:`heard_words` that the live recogniser wrote otherwise, or was
        unsure of, with their neighbours (:func:`coach.analysis.asking.disputed_words` and
        :func:`~coach.analysis.asking.unsure_words`; each utterance heard by both compared
        on its own): one of the two may have misheard them, so they are not quoted."""
        from coach.analysis.asking import disputed_words, unsure_words

        with self._lock:
            pairs = [(self._ear_words[s], self._utt_words[s])
                     for s in sorted(self._utt_words) if s in self._ear_words]  # fmt: skip
        out: list[tuple[str, str, str]] = []
        for ear, live in pairs:
            live = [w for w in live if w.text.strip()]
            out += disputed_words([w.text for w in ear if w.text.strip()], [w.text for w in live])
            out += unsure_words([(w.text, w.probability) for w in live])
        return out

    def heard_so_far(self) -> str:
        """:meth:`heard_words` as text."""
        return " ".join(w.text.strip() for w in self.heard_words())

    def heard_count(self) -> int:
        """Utterances heard so far (by either recogniser): a change means new text."""
        with self._lock:
            return len(self._utt_words) + len(self._ear_words)

    def stop_hearing(self, *, wait_s: float = 0.0) -> None:
        """Let the second recogniser catch up for at most ``wait_s`` seconds (call after
        :meth:`finish`), then stop it."""
        if self._ear_worker is not None:
            if wait_s > 0:
                self._ear_idle.wait(wait_s)
            self._ear_jobs.put(None)

    def heard_text(self, *, wait_s: float = 0.0) -> str:
        """:meth:`heard_so_far` once the second recogniser has caught up, or after
        ``wait_s`` seconds, whichever is first (:meth:`stop_hearing`)."""
        self.stop_hearing(wait_s=wait_s)
        return self.heard_so_far()

    def status(self) -> LiveStatus:
        """The live figures (cheap: call it about once a second)."""
        with self._lock:
            words = list(self._words)
            pending = max(0.0, self._pending_speech_s)
        items, idx = fillers.tag_fillers(words, self.options.score.fillers)
        lexical = fillers.lexical_words(words, idx)
        recent_wpm = None
        nudge = None
        if lexical:
            end = lexical[-1].end_s
            window = self.options.recent_window_s
            recent = [w for w in lexical if w.start_s >= end - window]
            span = min(window, end - lexical[0].start_s)
            if len(recent) >= self.options.min_recent_words and span > 5:
                recent_wpm = round(len(recent) / span * 60, 0)
                lo, hi = self.options.score.pace.band_wpm
                if recent_wpm > hi:
                    nudge = f"slow down: {recent_wpm:.0f} wpm (aim {lo:.0f}-{hi:.0f})"
                elif recent_wpm < lo:
                    nudge = f"pick up the pace: {recent_wpm:.0f} wpm (aim {lo:.0f}-{hi:.0f})"
        return LiveStatus(
            elapsed_s=round(self._received_s, 2),
            words=len(lexical),
            recent_wpm=recent_wpm,
            fillers=len(items),
            last_filler=items[-1].text if items else None,
            last_long_pause=self._last_long_pause,
            silence_s=round(self._silence_run_s, 2),
            speaking=bool(self._flags and self._flags[-1]),
            pending_s=round(pending, 2),
            nudge=nudge,
        )

    def speech_end_at(self, decided: float) -> float | None:
        """When the speech of the last utterance ended, on the clock of ``decided`` (the
        moment the end of the turn was decided, time.monotonic() seconds): ``decided`` less
        how far the audio received ran past it. None before any utterance."""
        if not self.utterances:
            return None
        _, speech_end, _ = self.utterances[-1]
        return decided - (self._received_s - speech_end)

    @property
    def silence_s(self) -> float:
        """How long the input has been silent right now, seconds (cheap, per frame)."""
        return self._silence_run_s

    @property
    def received_s(self) -> float:
        """Audio received so far, seconds."""
        return self._received_s

    @property
    def had_speech(self) -> bool:
        """Any voiced frame so far."""
        return self._had_speech

    def finish(self, *, file: str = "") -> ClipReport:
        """End the talk: flush, wait for the worker, analyse; safe to call once.

        Returns:
            The same report `coach score` gives for the recording.
        """
        if self._finished:
            raise RuntimeError("TalkRecorder.finish called twice")
        self._finished = True
        with self._lock:
            self._ended_at = time.perf_counter()
        for utt in self._endpointer.flush():
            self._queue_utterance(utt)
        self._queue_features()
        self._jobs.put(None)
        self._worker.join()
        if self._wav is not None:
            self._wav.close()
        self._raise_worker_error()
        with self._lock:
            words = sorted(self._words, key=lambda w: w.start_s)
            tracks = prosody.Tracks.concat(self._tracks)
            timings = {k: round(v, 3) for k, v in self._timings.items()}
        measured = Measured(words, tracks, self._received_s, timings)
        report = analyze(measured, self.options.score, file=file)
        report.asr_model = self._transcriber.options.model
        return report

    def close(self) -> None:
        """Stop the worker and close the wav without analysing (after an error)."""
        if not self._finished:
            self._finished = True
            self._jobs.put(None)
            self._worker.join(timeout=30)
        if self._ear_worker is not None:
            self._ear_jobs.put(None)
        if self._wav is not None and not self._wav.closed:
            self._wav.close()
