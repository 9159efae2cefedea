"""Score a recording: decode, detect voice, transcribe, measure, report.

The audio is processed in chunks of at most ``chunk_s`` seconds, cut at the quietest
moment near the chunk's end, so an hour-long file is never decoded whole. Each chunk gives
words and per-frame tracks; the analysis then runs once over the whole clip.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from coach import SAMPLE_RATE, audio
from coach.analysis import acoustic, disfluency, fillers, pace, pauses, prosody, tips
from coach.asr import AsrOptions, Transcriber
from coach.errors import AudioError, CoachError
from coach.report import ClipReport, ReportWord
from coach.transcript import Word, split_words
from coach.vad import VadOptions, flags_to_regions, snap_to_voice, voice_flags, voiced_flags

logger = logging.getLogger(__name__)

_CUT_ALIGN = 480  # samples: 30 ms, a whole number of VAD frames and of 10 ms hops
_TRACKS_NICE = 19
"""Niceness of the tracks thread: it takes a core the recogniser leaves idle, and waits
when the machine is busy. Under load on the 2-core machine, ASR took 49-52 s instead of
61-62 s and the whole measure 58-61 s instead of 63 s."""


@dataclass(frozen=True)
class ScoreOptions:
    """All stage options of `coach score`, one dataclass per stage."""

    asr: AsrOptions = field(default_factory=AsrOptions)
    """Recogniser."""
    vad: VadOptions = field(default_factory=VadOptions)
    """Voice activity."""
    pauses: pauses.PauseOptions = field(default_factory=pauses.PauseOptions)
    """Pause thresholds."""
    pace: pace.PaceOptions = field(default_factory=pace.PaceOptions)
    """Pace band and timeline."""
    fillers: fillers.FillerOptions = field(default_factory=fillers.FillerOptions)
    """Filler rules."""
    acoustic: acoustic.AcousticOptions = field(default_factory=acoustic.AcousticOptions)
    """Filled-pause recovery from the audio."""
    prosody: prosody.ProsodyOptions = field(default_factory=prosody.ProsodyOptions)
    """Pitch and volume."""
    tips: tips.TipOptions = field(default_factory=tips.TipOptions)
    """When figures earn a tip."""
    chunk_s: float = 900.0
    """Longest stretch of audio processed at once, seconds (bounds memory on long files).
    Each chunk starts the recogniser afresh and ends in a part-filled 30 s window; with
    300 s chunks the 10-minute bench file took 21-23 windows against 18-19 in one chunk
    (``make bench-speed``)."""


@dataclass
class Measured:
    """What the model-bound stages produced for a recording (input to the analysis)."""

    words: list[Word]
    """Recognised words, one token each, times in seconds."""
    tracks: prosody.Tracks
    """Per-frame tracks."""
    duration_s: float
    """Audio length, seconds."""
    timings_s: dict[str, float] = field(default_factory=dict)
    """Compute seconds per stage."""


def chunks(blocks: Iterable[np.ndarray], *, chunk_s: float) -> Iterator[tuple[np.ndarray, float]]:
    """Regroup decoded blocks into chunks of at most ``chunk_s`` seconds, cut in quiet.

    Yields:
        (samples, offset_s): each chunk and the time of its first sample. Every chunk but
        the last is a multiple of 30 ms long.
    """
    limit = max(_CUT_ALIGN * 10, int(chunk_s * SAMPLE_RATE) // _CUT_ALIGN * _CUT_ALIGN)
    buf = np.zeros(0, np.float32)
    offset = 0
    for block in blocks:
        buf = np.concatenate([buf, block]) if buf.size else block
        while buf.size >= limit:
            cut = _quiet_cut(buf[:limit])
            yield buf[:cut], offset / SAMPLE_RATE
            offset += cut
            buf = buf[cut:]
    if buf.size:
        yield buf, offset / SAMPLE_RATE


def _quiet_cut(samples: np.ndarray) -> int:
    """Index of the quietest 30 ms frame in the last fifth of ``samples`` (frame-aligned)."""
    n = samples.size // _CUT_ALIGN
    start = int(n * 0.8)
    frames = samples[start * _CUT_ALIGN : n * _CUT_ALIGN].reshape(-1, _CUT_ALIGN)
    energy = (frames.astype(np.float64) ** 2).mean(axis=1)
    return (start + int(np.argmin(energy))) * _CUT_ALIGN or n * _CUT_ALIGN


def measure(
    chunk_iter: Iterable[tuple[np.ndarray, float]],
    transcriber: Transcriber,
    options: ScoreOptions = ScoreOptions(),
    *,
    on_chunk: Callable[[float], None] | None = None,
) -> Measured:
    """Run voice activity, recognition and frame tracks over chunks of a recording.

    The pitch and loudness tracks of a chunk are measured in a second thread while it is
    transcribed: CTranslate2 releases the GIL and coach gives it half the cores
    (``AsrOptions.cpu_threads``), so the tracks cost no wall time on an idle core
    (``make bench-speed``). The thread runs at low priority (Linux), so on a busy
    machine it waits for the recogniser instead of slowing it. ``timings_s`` gives
    seconds per stage; ``tracks_s`` is the CPU time of the tracks, which overlaps
    ``asr_s``, and ``tracks_wait_s`` is what the tracks added after it.
    """
    words: list[Word] = []
    parts: list[prosody.Tracks] = []
    duration = 0.0
    spent = dict.fromkeys(("decode_s", "vad_s", "asr_s", "tracks_s", "tracks_wait_s"), 0.0)

    def tracks(samples: np.ndarray, flags: np.ndarray) -> tuple[prosody.Tracks, float]:
        _yield_to_asr()
        t0 = time.thread_time()  # CPU seconds: the niced thread may wait for a core
        voice = voice_flags(samples, flags, options=options.vad)
        out = prosody.frame_tracks(
            samples, voice, vad_frame_s=options.vad.frame_ms / 1000, options=options.prosody
        )
        return out, time.thread_time() - t0

    chunk_iter = iter(chunk_iter)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach-tracks") as pool:
        while True:
            t0 = time.perf_counter()
            try:
                samples, offset = next(chunk_iter)  # decoding happens here
            except StopIteration:
                break
            t1 = time.perf_counter()
            flags = voiced_flags(audio.to_int16(samples), options=options.vad)
            regions = flags_to_regions(flags, options=options.vad)
            t2 = time.perf_counter()
            pending = pool.submit(tracks, samples, flags)
            if regions:
                words.extend(transcriber.transcribe(samples, regions=regions, offset_s=offset))
            t3 = time.perf_counter()
            part, tracks_s = pending.result()
            parts.append(part)
            t4 = time.perf_counter()
            for key, dt in (("decode_s", t1 - t0), ("vad_s", t2 - t1), ("asr_s", t3 - t2),
                            ("tracks_s", tracks_s), ("tracks_wait_s", t4 - t3)):  # fmt: skip
                spent[key] += dt
            duration = offset + samples.size / SAMPLE_RATE
            if on_chunk:
                on_chunk(duration)
    timings = {k: round(v, 3) for k, v in spent.items()}
    timings["features_s"] = round(spent["vad_s"] + spent["tracks_s"], 3)
    return Measured(
        words=split_words(words),
        tracks=prosody.Tracks.concat(parts),
        duration_s=duration,
        timings_s=timings,
    )


def _yield_to_asr() -> None:
    """Lower the calling thread's CPU priority (Linux only; elsewhere a no-op)."""
    if not _TRACKS_NICE or not sys.platform.startswith("linux"):
        return
    try:
        tid = threading.get_native_id()  # on Linux a thread's id is a PRIO_PROCESS target
        nice = max(os.getpriority(os.PRIO_PROCESS, tid), _TRACKS_NICE)
        os.setpriority(os.PRIO_PROCESS, tid, nice)
    except OSError:
        logger.debug("cannot lower the tracks thread's priority", exc_info=True)


def analyze(
    measured: Measured, options: ScoreOptions = ScoreOptions(), *, file: str = ""
) -> ClipReport:
    """The whole analysis over measured words and tracks (pure: no models, no devices)."""
    t0 = time.perf_counter()
    tracks = measured.tracks
    vad_frame_s = options.vad.frame_ms / 1000
    voice = pauses.speech_spans(
        tracks.voiced, frame_s=vad_frame_s, rms_db=tracks.rms_db, options=options.pauses
    )
    words = snap_to_voice(measured.words, tracks.voiced, frame_s=vad_frame_s)
    if options.fillers.place:
        words = fillers.place_filled_pauses(words, voice, options.fillers)
    report = ClipReport(file=file, duration_s=measured.duration_s, tracks=tracks)
    filler_items, filler_idx = fillers.tag_fillers(words, options.fillers)
    filler_items += acoustic.recover_filled_pauses(
        words, filler_idx, tracks, options=options.acoustic
    )
    lexical = fillers.lexical_words(words, filler_idx)
    pause_stats = pauses.pauses(
        words, tracks.voiced, frame_s=vad_frame_s, rms_db=tracks.rms_db, options=options.pauses
    )
    span = pace.voiced_span(lexical, words, voice) if options.pace.voiced_edges else None
    pace_stats = pace.pace(
        lexical, pause_total_s=pause_stats.total_s, span=span, options=options.pace
    )
    start, end = pace.speaking_span(words)
    if span is not None:  # the voiced edges (issue 8), widened to fillers placed outside them
        start = min([span[0], *(it.start_s for it in filler_items)])
        end = max([span[1], *(it.end_s for it in filler_items)])
    speaking_s = end - start
    report.words = [
        ReportWord(w.text, w.start_s, w.end_s, i in filler_idx, w.probability)
        for i, w in enumerate(words)
    ]
    report.transcript = " ".join(w.text for w in words)
    report.word_count = len(lexical)
    report.pace = pace_stats
    report.pauses = pause_stats
    report.fillers = fillers.summarize(filler_items, speaking_s)
    report.pitch = prosody.pitch_stats(tracks, options.prosody)
    report.energy = prosody.energy_stats(tracks, lexical, options.prosody)
    report.repetitions = disfluency.repetitions(words, filler_idx, speaking_s=speaking_s)
    report.hedges = disfluency.hedges(words, speaking_s=speaking_s)
    report.tips = tips.tips(
        pace=report.pace, pauses=report.pauses, fillers=report.fillers, pitch=report.pitch,
        energy=report.energy, repetitions=report.repetitions, hedges=report.hedges,
        options=options.tips,
    )  # fmt: skip
    if not words:
        report.error = (
            "no speech found: the clip is silent or holds no recognisable words"
            if measured.duration_s > 0
            else "no audio: the file decodes to zero samples"
        )
    report.timings_s = {
        **measured.timings_s,
        "analysis_s": round(time.perf_counter() - t0, 3),
    }
    return report


def score_file(
    path: str | os.PathLike[str],
    transcriber: Transcriber,
    options: ScoreOptions = ScoreOptions(),
    *,
    on_chunk: Callable[[float], None] | None = None,
) -> ClipReport:
    """Score one file; a bad file gives a report whose ``error`` says why (never raises
    for bad input)."""
    name = str(path)
    try:
        blocks = audio.iter_blocks(path, block_s=30.0)
        measured = measure(
            chunks(blocks, chunk_s=options.chunk_s), transcriber, options, on_chunk=on_chunk
        )
        report = analyze(measured, options, file=name)
    except AudioError as exc:
        return ClipReport(file=name, error=str(exc))
    except CoachError as exc:
        return ClipReport(file=name, error=str(exc))
    except MemoryError:
        return ClipReport(file=name, error=f"{name}: out of memory while scoring")
    report.asr_model = transcriber.options.model
    return report
