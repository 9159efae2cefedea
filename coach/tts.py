"""Speech synthesis with Piper: one class behind a ``load()`` factory.

:meth:`Speaker.speak` yields one :class:`SpeechChunk` per sentence as soon as that sentence
is synthesised, so playback of the first sentence starts while the rest is still being
made. :meth:`Speaker.speak_stream` does the same for text that arrives in pieces (tokens
streamed from a language model): it cuts complete sentences out of the growing text with
:func:`split_sentences` and speaks each one as soon as it is complete.

Voices are resolved like ASR models: a manifest name (``en_US-joe-medium``) that
``coach models fetch`` has installed, or a path to a ``.onnx`` file with its ``.onnx.json``
beside it. Nothing is ever downloaded here.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from coach.errors import ModelError, OptionsError
from coach.text import split_sentences

logger = logging.getLogger(__name__)

DEFAULT_VOICE = "en_US-joe-medium"
"""The manifest voice used when none is named."""


# --- sentence splitting ---------------------------------------------------------------------

_TITLES = re.compile(r"\b(Mr|Mrs|Ms|Dr|Prof|Rev|Hon|Gen|Col|Lt|Sgt|Capt|Mt)\.(?=\s)")


def _for_piper(sentence: str) -> str:
    """Text as Piper should read it: "Dr. Lee" -> "Dr Lee".

    espeak-ng ends a sentence at "Dr." and Piper then makes a separate chunk with a
    sentence-final fall; without the period it still reads "doctor".
    """
    return _TITLES.sub(r"\1", sentence)


def _speakable(sentence: str) -> bool:
    return any(ch.isalnum() for ch in sentence)


def _session(path: Path, threads: int) -> Any:
    """An onnxruntime session of the voice on ``threads`` CPU threads that sleep, not spin,
    between runs (so a recogniser beside it keeps its core)."""
    import onnxruntime

    opts = onnxruntime.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return onnxruntime.InferenceSession(str(path), sess_options=opts,
                                        providers=["CPUExecutionProvider"])  # fmt: skip


# --- options and results --------------------------------------------------------------------


@dataclass(frozen=True)
class TtsOptions:
    """Synthesiser settings."""

    voice: str = DEFAULT_VOICE
    """A manifest voice name (en_US-joe-medium), a path to a Piper ``.onnx`` file whose
    ``.onnx.json`` sits beside it, or a folder holding exactly one such pair."""
    length_scale: float | None = None
    """Phoneme length multiplier: above 1 speaks slower, below 1 faster (range 0.1-10).
    None uses the voice's own setting (1.0 for most voices)."""
    noise_scale: float | None = None
    """Generator noise (variation in timbre), at least 0; None uses the voice's setting."""
    noise_w_scale: float | None = None
    """Phoneme duration noise (variation in rhythm), at least 0; None uses the voice's
    setting."""
    sentence_silence_s: float = 0.2
    """Silence appended to every sentence, in seconds (0-5)."""
    deterministic: bool = False
    """Set both noise scales to 0 so the same text gives the same samples every time
    (tests, fixtures); overrides noise_scale and noise_w_scale."""
    threads: int = 0
    """CPU threads of the voice; 0 keeps onnxruntime's default (every core, its threads
    spinning between runs). A live session gives it the LLM thread's share with spinning
    off: beside Piper's default session a 3.1 s utterance took tiny.en (one thread)
    1.8-1.9 s against 1.3 s alone, beside a one-thread session 1.3 s; the voice then
    speaks a 6 s sentence in 0.63 s against 0.44 s."""

    def __post_init__(self) -> None:
        if self.length_scale is not None and not 0.1 <= self.length_scale <= 10:
            raise OptionsError(
                f"length_scale {self.length_scale} is out of range: use 0.1-10 "
                "(1 = the voice's normal rate, 1.2 = 20 % slower) or None"
            )
        for name in ("noise_scale", "noise_w_scale"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise OptionsError(f"{name} {value} must be at least 0 (or None)")
        if self.threads < 0:
            raise OptionsError(f"threads {self.threads} must be at least 0 (0: every core)")
        if not 0 <= self.sentence_silence_s <= 5:
            raise OptionsError(
                f"sentence_silence_s {self.sentence_silence_s} is out of range: use 0-5 seconds"
            )


@dataclass(frozen=True, eq=False)
class SpeechChunk:
    """One spoken sentence."""

    text: str
    """The sentence as written."""
    samples: np.ndarray
    """int16 mono samples of shape ``(n,)``, ending with the sentence silence."""
    sample_rate_hz: int
    """Sample rate of ``samples`` in Hz (the voice's rate, 22050 for medium voices)."""
    start_s: float
    """Offset of this chunk from the start of the utterance, in seconds."""

    @property
    def duration_s(self) -> float:
        """Length of the chunk in seconds (speech plus trailing silence)."""
        return self.samples.size / self.sample_rate_hz

    @property
    def end_s(self) -> float:
        """Offset of the end of this chunk from the start of the utterance, in seconds."""
        return self.start_s + self.duration_s


# --- the speaker ----------------------------------------------------------------------------


class Speaker:
    """A Piper voice on the CPU; make one with :meth:`load`.

    The constructor takes any object shaped like ``piper.PiperVoice`` (``config.sample_rate``
    and ``synthesize(text, syn_config=...)`` yielding chunks with ``audio_float_array`` and
    ``sample_rate``), so tests can pass a fake voice.
    """

    def __init__(self, voice: Any, options: TtsOptions, model_path: Path | None = None) -> None:
        self._voice = voice
        self.options = options
        self.model_path = model_path
        self._syn_config = _synthesis_config(options)

    @classmethod
    def load(cls, options: TtsOptions = TtsOptions()) -> Speaker:
        """Load the voice named in ``options.voice`` (never touches the network).

        Raises:
            ModelError: the voice is not installed (says how to fetch it), the path is not
                a ``.onnx`` with its ``.onnx.json`` beside it, the files are corrupt, or
                piper-tts is not installed.
        """
        path = resolve_voice(options.voice)
        try:
            from piper import PiperVoice
        except ImportError as exc:
            raise ModelError(
                "speech output needs piper-tts: pip install piper-tts (it comes with coach; the "
                "environment may be a different one)"
            ) from exc
        try:
            voice = PiperVoice.load(str(path))
            if options.threads:
                voice.session = _session(path, options.threads)
        except Exception as exc:  # onnxruntime, json and KeyError all surface here
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise ModelError(
                f"cannot load Piper voice {path}: {type(exc).__name__}: {reason[:200]}; "
                "fetch it again with `coach models fetch --force` or pass another --voice"
            ) from exc
        logger.debug("loaded Piper voice %s (%d Hz)", path, voice.config.sample_rate)
        return cls(voice, options, path)

    @property
    def sample_rate_hz(self) -> int:
        """Sample rate of the voice in Hz."""
        return int(self._voice.config.sample_rate)

    def speak(self, text: str) -> Iterator[SpeechChunk]:
        """Speak a whole text, one chunk per sentence.

        Sentences are synthesised one at a time, so the first chunk is ready after the
        first sentence, not after the whole text.

        Args:
            text: Any text; empty or white-space-only text yields nothing.

        Yields:
            One :class:`SpeechChunk` per sentence, in order, with ``start_s`` counting from
            the start of the text.
        """
        sentences, rest = split_sentences(text)
        if rest.strip():
            sentences.append(rest.strip())
        yield from self._speak_sentences(iter(sentences))

    def speak_stream(self, pieces: Iterable[str]) -> Iterator[SpeechChunk]:
        """Speak text that arrives in pieces (such as tokens from a language model).

        Each sentence is spoken as soon as :func:`split_sentences` finds it complete;
        whatever is left when ``pieces`` ends is spoken last.

        Args:
            pieces: Text pieces in order; they are joined as given (no spaces added).

        Yields:
            One :class:`SpeechChunk` per sentence, as in :meth:`speak`.
        """

        def sentences() -> Iterator[str]:
            buffer = ""
            for piece in pieces:
                buffer += piece
                done, buffer = split_sentences(buffer)
                yield from done
            if buffer.strip():
                yield buffer.strip()

        yield from self._speak_sentences(sentences())

    def synthesize(self, sentence: str) -> np.ndarray:
        """Synthesise one sentence without the trailing silence.

        Returns:
            int16 mono samples at :attr:`sample_rate_hz`; empty if nothing is speakable.
        """
        parts = [
            np.asarray(c.audio_float_array, dtype=np.float32)
            for c in self._voice.synthesize(_for_piper(sentence), syn_config=self._syn_config)
        ]
        if not parts:
            return np.zeros(0, dtype=np.int16)
        audio = np.concatenate(parts)
        return (np.clip(audio, -1.0, 1.0) * 32767.0).astype(np.int16)

    def _speak_sentences(self, sentences: Iterator[str]) -> Iterator[SpeechChunk]:
        rate = self.sample_rate_hz
        silence = np.zeros(round(self.options.sentence_silence_s * rate), dtype=np.int16)
        offset_n = 0
        for sentence in sentences:
            if not _speakable(sentence):
                continue
            speech = self.synthesize(sentence)
            if speech.size == 0:
                continue
            samples = np.concatenate([speech, silence]) if silence.size else speech
            yield SpeechChunk(sentence, samples, rate, offset_n / rate)
            offset_n += samples.size


class _Failure:
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


_END = object()


def prefetch(chunks: Iterable[SpeechChunk], *, depth: int = 2) -> Iterator[SpeechChunk]:
    """Make chunks in a background thread while the caller plays the previous ones.

    A blocking sink (the speaker) would otherwise leave a gap the length of the next
    sentence's synthesis between sentences. Piper (onnxruntime) and llama.cpp release the
    GIL while they compute, so synthesis and generation really run alongside playback.

    Args:
        chunks: Usually ``speaker.speak(text)`` or ``speaker.speak_stream(tokens)``; it is
            iterated in the background thread (so is whatever feeds it).
        depth: How many finished chunks may wait, at least 1.

    Yields:
        The same chunks in the same order; an exception raised while making them is
        raised here. If the caller stops early, the producer stops at its next chunk.
    """
    import queue
    import threading

    if depth < 1:
        raise OptionsError(f"prefetch depth {depth} must be at least 1")
    ready: queue.Queue[object] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: object) -> bool:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        it = iter(chunks)
        try:
            for item in it:
                if not put(item):
                    return
            put(_END)
        except BaseException as exc:  # handed to the consumer, which raises it
            put(_Failure(exc))
        finally:
            close = getattr(it, "close", None)
            if stop.is_set() and close is not None:
                try:
                    close()
                except Exception:  # best effort on early stop
                    logger.debug("closing the chunk source failed", exc_info=True)

    worker = threading.Thread(target=produce, name="coach-tts-prefetch", daemon=True)
    worker.start()
    try:
        while True:
            item = ready.get()
            if item is _END:
                return
            if isinstance(item, _Failure):
                raise item.exc
            yield item  # type: ignore[misc]
    finally:
        stop.set()


def _synthesis_config(options: TtsOptions) -> Any:
    """The piper SynthesisConfig for the options (None fields keep the voice's own)."""
    noise = 0.0 if options.deterministic else options.noise_scale
    noise_w = 0.0 if options.deterministic else options.noise_w_scale
    try:
        from piper.config import SynthesisConfig
    except ImportError:  # a fake voice in tests; it takes any object with these fields
        from types import SimpleNamespace

        return SimpleNamespace(
            length_scale=options.length_scale, noise_scale=noise, noise_w_scale=noise_w
        )
    return SynthesisConfig(
        length_scale=options.length_scale, noise_scale=noise, noise_w_scale=noise_w
    )


def resolve_voice(voice: str) -> Path:
    """A manifest voice name, a ``.onnx`` path or a voice folder -> the ``.onnx`` file.

    Raises:
        ModelError: unknown or uninstalled name (says the fetch command), a path that is
            not a Piper voice, or a ``.onnx`` without its ``.onnx.json``.
    """
    from coach import models

    hint = "pass the .onnx with its .onnx.json beside it, or a voice name such as " + DEFAULT_VOICE
    looks_like_path = (
        os.sep in voice or voice.startswith(".") or voice.endswith(".onnx") or Path(voice).exists()
    )
    if not looks_like_path:
        folder = models.installed_path(voice, kind="tts")
        onnx = folder / f"{voice}.onnx"
        if not onnx.is_file():
            found = sorted(folder.glob("*.onnx"))
            if not found:
                raise ModelError(f"voice '{voice}' in {folder} has no .onnx file: {hint}")
            onnx = found[0]
        return onnx
    path = Path(voice).expanduser()
    if path.is_dir():
        found = sorted(path.glob("*.onnx"))
        if len(found) != 1:
            raise ModelError(f"{path} holds {len(found)} .onnx files, not one: {hint}")
        path = found[0]
    if not path.is_file():
        raise ModelError(f"{path}: no such Piper voice file: {hint}")
    if path.suffix != ".onnx":
        raise ModelError(f"{path} is not a Piper voice (.onnx): {hint}")
    config = path.with_name(path.name + ".json")
    if not config.is_file():
        raise ModelError(f"{path}: its config {config.name} is missing: {hint}")
    return path
