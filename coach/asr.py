"""Speech recognition with faster-whisper: one class behind a ``load()`` factory.

Only the voiced regions found by webrtcvad are sent to Whisper (cut out and joined, with
times mapped back), which keeps silent stretches from turning into invented text and
saves time on pauses. The decoder is primed with a disfluent prompt so that Whisper
writes the "um" and "uh" it otherwise tidies away.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from coach import SAMPLE_RATE
from coach.errors import ModelError
from coach.transcript import Word

logger = logging.getLogger(__name__)

DISFLUENT_PROMPT = (
    "Umm, let me think, hmm... Uh, so, er, I mean, I was, um, thinking that, uh, we could."
)
"""Decoder prompt that keeps filled pauses in Whisper's output.

Whisper was trained on tidied transcripts and drops most filled pauses; a prompt written
in a disfluent style makes it transcribe them (a widely used prompt from the OpenAI
Whisper prompting guide). Measured on ../shared/eval by `make bench-accuracy`."""


@dataclass(frozen=True)
class AsrOptions:
    """Recogniser settings."""

    model: str = "tiny.en"
    """A manifest name (tiny.en, base), a CTranslate2 model folder, or a faster-whisper
    model name already in the local Hugging Face cache (nothing is downloaded)."""
    compute_type: str = "int8"
    """CTranslate2 compute type; int8 is fastest on CPU."""
    cpu_threads: int = 0
    """Threads for the encoder/decoder of each worker; 0 picks half the logical CPUs
    shared among the :attr:`workers` (at least 1 each). On the 2-core machine coach is
    developed on, tiny.en ran at 0.087 x real time with 1 thread, 0.113 with 2 and 0.148
    with CTranslate2's own default (hyper-threads and OpenMP spinning cost more than they
    give)."""
    workers: int = 1
    """Pieces of the voiced audio (see :attr:`prompt_chunk_s`) recognised at once, each
    worker with its own copy of the model (more memory: one model's weights per worker) on
    its own thread; 0 picks :func:`default_workers`. Pieces are dealt to the workers in
    turn, so a file gives the same words every run. One worker recognises one piece after
    another; a live session, which hears one utterance at a time, uses one."""
    beam_size: int = 1
    """Beam width of the decoder. Greedy decoding (1) measured the same filled-pause
    precision and recall on ../shared/eval as a beam of 5, with fewer word-count errors,
    at about 60 % of the time (`make bench-accuracy`)."""
    initial_prompt: str | None = DISFLUENT_PROMPT
    """Text that primes the decoder; None for Whisper's plain behaviour."""
    prompt_every_window: bool = False
    """Prime every 30 s window with ``initial_prompt`` (passed to faster-whisper as
    ``hotwords``), not only the first. With ``condition_on_previous_text=False``,
    faster-whisper's ``initial_prompt`` reaches the first window of each ``transcribe()``
    call only, so on a long talk only its first 30 s are primed for fillers. Off, as the
    held-out figures got worse as well as better: on the eval clips joined into one
    10-minute file (``make bench-accuracy-long``), held-out filled-pause recall rose from
    0.48 to 0.70 (F1 0.59 to 0.69) but precision fell from 0.76 to 0.68 and the pooled
    word-count error rose from 11.4 % to 15.0 % (invented phrases and lost words near
    some window edges); ASR time about 17 % more (39 s to 46 s). The short clips of
    ``make bench-accuracy`` scored the same either way."""
    prompt_chunk_s: float | None = 25.0
    """Cut the voiced audio at its pauses into pieces of at most this many seconds and
    recognise each on its own, primed with ``initial_prompt`` as a short clip is (a stretch
    of speech longer than this with no pause in it stays whole). None recognises the
    voiced audio as one piece, primed in its first window only: on the eval clips joined
    into one 10-minute file (``make bench-accuracy-long``), dev filled-pause F1 0.11
    (recall 0.06) against 0.72-0.73 in pieces of 25 s, chosen on dev over 20 s (F1
    0.76-0.77, but pooled word-count error 32-34 % against 29-30 %, and ASR 23-37 %
    slower), 28 s (0.53-0.60) and 30 s (0.46). The
    cost is ASR time: each piece is a 30 s window of its own, about 1.3 times the
    recogniser's time on a long file (``make bench-accuracy-long``, with
    :attr:`last_window_ends`). Clips shorter than a piece are recognised exactly as
    before."""
    temperatures: tuple[float, ...] = (0.0, 0.5)
    """Decoding temperatures: greedy first, one sampled retry when the output loops
    (compression ratio above 2.4). Whisper's usual six steps cost 2-3 times as much on
    disfluent speech, where the filler prompt makes loops likelier."""
    best_of: int = 1
    """Samples drawn at each retry temperature, the likeliest kept. faster-whisper's
    default of 5 made each retry cost several greedy passes; see ``make bench-speed``."""
    max_new_tokens: int | None = 224
    """Most tokens decoded per 30 s window; None allows Whisper's 448 less the prompt.
    Speech at 240 words per minute takes about 160; only a loop runs longer, and a cut
    window resumes at its last word in the next one."""
    seed: int | None = 0
    """Seed of the sampled retries, so that scoring a file again in a new process gives
    the same words (unseeded, the 10-minute bench file gave 665-697 words from run to
    run). CTranslate2 seeds each of its threads once, so later calls in one process
    continue the sequence. None leaves its generator unseeded."""
    log_prob_threshold: float | None = None
    """Retry a window whose mean token log-probability is below this; None never does.
    Transcripts that keep fillers score low by nature, so this retry mostly wasted time."""
    repetition_penalty: float = 1.05
    """Penalty on tokens already produced (1 = none). The filler prompt invites loops
    ("uh, uh, uh, ..." to the end of the window); a mild penalty breaks them at the
    first try instead of after costly temperature retries."""
    language: str = "en"
    """Spoken language (coach's analysis is English)."""
    region_pad_s: float = 0.2
    """Context kept around each voiced region when it is cut out, in seconds."""
    last_window_ends: bool = True
    """Let the last 30 s window of the audio given to Whisper end it. faster-whisper
    treats the words after a window's last timestamp (and, with word times, everything
    after the last word) as cut off by the window, drops them and recognises the rest
    again in a window of its own. When the window already reaches the end of the audio,
    that second window is a full 30 s encoder pass for a fraction of a second of audio,
    and most pieces ended in one: on the 10-minute bench file, 39 windows for 22 pieces.
    On, the words after the last timestamp are kept (their times come from the word
    alignment) and the piece ends there; a piece Whisper ended early is still recognised
    on from its last word (primed again). See ``make bench-speed``."""


@dataclass(frozen=True)
class _Span:
    src_start_s: float
    joined_start_s: float
    length_s: float


def _join_regions(
    samples: np.ndarray, regions: list[tuple[float, float]], pad_s: float
) -> tuple[np.ndarray, list[_Span]]:
    """Cut the padded regions out of ``samples`` and join them; return the map back."""
    n = samples.size
    merged: list[list[int]] = []
    for a, b in regions:
        i = max(0, int((a - pad_s) * SAMPLE_RATE))
        j = min(n, int((b + pad_s) * SAMPLE_RATE))
        if merged and i <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], j)
        elif j > i:
            merged.append([i, j])
    pieces, spans, pos = [], [], 0
    for i, j in merged:
        pieces.append(samples[i:j])
        spans.append(_Span(i / SAMPLE_RATE, pos / SAMPLE_RATE, (j - i) / SAMPLE_RATE))
        pos += j - i
    joined = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.float32)
    return joined, spans


_RESUME_S = 2.0
"""Voiced audio left after a piece's last word, in seconds, that is recognised again as a
piece of its own. Whisper may end a window after a sentence, taking the rest for silence
(faster-whisper then skips to the window's end): on the 10-minute bench file a piece
returned "Ask what you can do for your country." and dropped the 22 s of speech after it."""


def _chunks(spans: list[_Span], most_s: float | None) -> list[tuple[float, float]]:
    """Consecutive spans grouped into pieces of the joined audio of at most ``most_s``
    seconds each (a longer span is a piece of its own): (start_s, end_s) in joined time."""
    if not spans:
        return []
    if most_s is None:
        return [(0.0, spans[-1].joined_start_s + spans[-1].length_s)]
    out: list[tuple[float, float]] = []
    for span in spans:
        span_end = span.joined_start_s + span.length_s
        if out and span_end - out[-1][0] <= most_s:
            out[-1] = (out[-1][0], span_end)
        else:
            out.append((span.joined_start_s, span_end))
    return out


def _to_source_time(t: float, spans: list[_Span]) -> float:
    for span in reversed(spans):
        if t >= span.joined_start_s:
            return span.src_start_s + min(t - span.joined_start_s, span.length_s)
    return spans[0].src_start_s if spans else t


class Transcriber:
    """faster-whisper on the CPU; make one with :meth:`load`."""

    def __init__(self, model, options: AsrOptions, model_path: str, spares=()) -> None:  # type: ignore[no-untyped-def]
        self._models = [model, *spares]
        """One copy of the model per worker; piece i goes to copy i modulo their count."""
        self.options = options
        self.model_path = model_path

    @property
    def _model(self):  # type: ignore[no-untyped-def]
        """The first worker's model (the only one with one worker)."""
        return self._models[0]

    @classmethod
    def load(cls, options: AsrOptions = AsrOptions()) -> Transcriber:
        """Load the recogniser named in ``options.model`` (never touches the network).

        Raises:
            ModelError: the model is missing or cannot be loaded; says how to fetch it.
        """
        path = resolve_model(options.model)
        workers = options.workers or default_workers()
        threads = options.cpu_threads or default_threads(workers)
        try:
            model_class = _whisper_class(options.last_window_ends)
            copies = [
                model_class(
                    path,
                    device="cpu",
                    compute_type=options.compute_type,
                    cpu_threads=threads,
                    local_files_only=True,
                )
                for _ in range(workers)
            ]
        except Exception as exc:  # ctranslate2 raises RuntimeError/ValueError/OSError
            raise ModelError(
                f"cannot load ASR model '{options.model}' from {path}: {exc}".splitlines()[0]
            ) from exc
        return cls(copies[0], options, path, copies[1:])

    def transcribe(
        self,
        samples: np.ndarray,
        *,
        regions: list[tuple[float, float]] | None = None,
        offset_s: float = 0.0,
    ) -> list[Word]:
        """Recognise words with their times.

        Args:
            samples: float32 mono 16 kHz audio.
            regions: voiced ``(start_s, end_s)`` regions relative to ``samples``; only these
                (padded) are recognised. None recognises everything.
            offset_s: added to every time, for audio that starts later in a recording.

        Returns:
            Words in time order, times in seconds from the start of the recording.
        """
        if regions is None:
            regions = [(0.0, samples.size / SAMPLE_RATE)]
        joined, spans = _join_regions(samples, regions, self.options.region_pad_s)
        if joined.size < SAMPLE_RATE * 0.1:
            return []
        if self.options.seed is not None:
            import ctranslate2

            ctranslate2.set_random_seed(self.options.seed)
        # pieces serve the prompt: without one, the voiced audio is one piece
        most_s = self.options.prompt_chunk_s if self.options.initial_prompt else None
        pieces = _chunks(spans, most_s)
        n = min(len(self._models), len(pieces))

        stop = threading.Event()

        def worker(k: int) -> list[list[Word]]:
            out = []
            for piece in pieces[k::n]:
                if stop.is_set():  # another worker failed, or Ctrl-C: no more pieces
                    break
                out.append(self._piece(joined, spans, piece, most_s, offset_s, self._models[k]))
            return out

        if n <= 1:
            return [w for piece in worker(0) for w in piece] if pieces else []
        from concurrent.futures import ThreadPoolExecutor

        pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="coach-asr")
        try:  # CTranslate2 releases the GIL: the workers recognise at once
            dealt = [f.result() for f in [pool.submit(worker, k) for k in range(n)]]
        finally:
            stop.set()  # after an error or Ctrl-C, the others stop after their current piece
            pool.shutdown(wait=True)
        # piece i was worker i % n's (i // n)-th
        return [w for i in range(len(pieces)) for w in dealt[i % n][i // n]]

    def _piece(
        self, joined: np.ndarray, spans: list[_Span], piece: tuple[float, float],
        most_s: float | None, offset_s: float, model,  # type: ignore[no-untyped-def]
    ) -> list[Word]:  # fmt: skip
        """The words of one piece (joined-audio seconds), in recording time."""
        a_s, b_s = piece
        words: list[Word] = []
        while True:
            audio = joined[int(a_s * SAMPLE_RATE) : int(b_s * SAMPLE_RATE)]
            heard = list(self._recognise(audio, model))
            for text, start, end, probability in heard:
                start = _to_source_time(start + a_s, spans) + offset_s
                end = max(start, _to_source_time(end + a_s, spans) + offset_s)
                words.append(Word(text, round(start, 3), round(end, 3), round(probability, 3)))
            last_s = max((end for _t, _s, end, _p in heard), default=0.0)
            if most_s is None or last_s < 1.0:
                break
            a_s += last_s  # Whisper ended the piece early: the rest, primed again
            if b_s - a_s < _RESUME_S:
                break
        return words

    def _recognise(
        self,
        joined: np.ndarray,
        model,  # type: ignore[no-untyped-def]
    ) -> Iterator[tuple[str, float, float, float]]:
        """(text, start_s, end_s, probability) of each word of one piece of audio."""
        prompt = self.options.initial_prompt
        every = self.options.prompt_every_window and bool(prompt)
        segments, _info = model.transcribe(
            joined,
            language=self.options.language,
            beam_size=self.options.beam_size,
            initial_prompt=None if every else prompt,
            hotwords=prompt if every else None,
            condition_on_previous_text=False,
            temperature=list(self.options.temperatures),
            best_of=self.options.best_of,
            max_new_tokens=self.options.max_new_tokens,
            log_prob_threshold=self.options.log_prob_threshold,
            repetition_penalty=self.options.repetition_penalty,
            word_timestamps=True,
            vad_filter=False,
        )
        for seg in segments:
            for w in seg.words or []:
                text = w.word.strip()
                if text:
                    yield text, w.start, w.end, w.probability


def _whisper_class(last_window_ends: bool) -> type:
    """faster-whisper's ``WhisperModel``, or with ``last_window_ends`` a subclass whose
    last window ends the audio (see :attr:`AsrOptions.last_window_ends`)."""
    from faster_whisper import WhisperModel

    if not last_window_ends:
        return WhisperModel

    class _EndingWhisperModel(WhisperModel):  # type: ignore[misc, valid-type]
        def _split_segments_by_timestamps(  # type: ignore[no-untyped-def]
            self, tokenizer, tokens, time_offset, segment_size, segment_duration, seek
        ):
            segments, next_seek, single = super()._split_segments_by_timestamps(
                tokenizer=tokenizer, tokens=tokens, time_offset=time_offset,
                segment_size=segment_size, segment_duration=segment_duration, seek=seek,
            )  # fmt: skip
            return _end_last_window(
                segments, next_seek, single, tokens,
                last=segment_size < self.feature_extractor.nb_max_frames,
                timestamp_begin=tokenizer.timestamp_begin,
                seconds_per_timestamp=self.time_precision, time_offset=time_offset,
                segment_size=segment_size,
                segment_duration=segment_duration, seek=seek,
            )  # fmt: skip

    return _EndingWhisperModel


def _end_last_window(
    segments: list[dict], next_seek: int, single_ending: bool, tokens: list[int], *,
    last: bool, timestamp_begin: int, seconds_per_timestamp: float, time_offset: float,
    segment_size: int, segment_duration: float, seek: int,
) -> tuple[list[dict], int, bool]:  # fmt: skip
    """faster-whisper's split of one window's tokens into segments, made final when the
    window is the ``last`` one of the audio: the tokens after the last complete segment
    become a segment to the window's end, and the next seek is past the window (the
    third value, "ends on a single timestamp", is then True, so word times do not move
    the seek back to the last word)."""
    if not last or single_ending:
        return segments, next_seek, single_ending
    tail = tokens[sum(len(s["tokens"]) for s in segments) :]
    if any(t < timestamp_begin for t in tail):
        first = tail[0] - timestamp_begin if tail[0] >= timestamp_begin else 0
        start = time_offset + first * seconds_per_timestamp
        segments = [*segments, dict(seek=seek, start=start,
                                    end=time_offset + segment_duration, tokens=tail)]  # fmt: skip
    return segments, seek + segment_size, True


def default_threads(workers: int = 1) -> int:
    """Threads for each of ``workers``: half the logical CPUs shared among them, at least 1
    each (see AsrOptions.cpu_threads)."""
    return max(1, (os.cpu_count() or 2) // 2 // workers)


def default_workers() -> int:
    """Two workers on a machine with two or more logical CPUs, else one (see
    AsrOptions.workers)."""
    return 2 if (os.cpu_count() or 1) >= 2 else 1


def resolve_model(name: str) -> str:
    """A manifest name, a folder, or a cached faster-whisper name -> what WhisperModel takes."""
    from coach import models

    if os.sep in name or name.startswith(".") or Path(name).is_dir():
        p = Path(name).expanduser()
        if not (p / "model.bin").is_file():
            raise ModelError(
                f"{p} is not a CTranslate2 Whisper model folder (no model.bin); convert one "
                "with ct2-transformers-converter or pass a manifest name such as tiny.en"
            )
        return str(p)
    if name in models.load_manifest():
        return str(models.installed_path(name, kind="asr"))
    # Any other faster-whisper name works if the user already has it in the local HF cache.
    try:
        from faster_whisper.utils import download_model

        return download_model(name, local_files_only=True)
    except Exception as exc:
        raise ModelError(
            f"ASR model '{name}' is not installed and coach never downloads at run time: "
            "pass a local CTranslate2 model folder with --asr-model PATH, or use tiny.en/base "
            "(`coach models fetch`)"
        ) from exc
