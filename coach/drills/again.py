"""The ``again`` drill: the sentences of your last session with the most flagged moments,
played back one by one; you say each again, and the two deliveries are compared figure by
figure.

The pure part reads a session's ``report.json`` (its talk's words, fillers, pauses and
trail-offs with their times): :func:`flagged_sentences` picks the sentences,
:func:`figures_of` measures a stretch of speech, :func:`compare` sets a retake against its
sentence, and :func:`score_again` gives the share of the flagged moments the retakes no
longer had. :func:`run_again` plays and records.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from coach.errors import CoachError, OptionsError

FIGURES = ("fillers", "long_pauses", "trail_offs", "wpm")
"""The figures compared, in order. The first three are flagged moments (better fewer); the
pace of one sentence is shown as faster or slower, not judged: a sentence has no pauses
between sentences, so its pace runs above the talk's and the talk's band does not apply."""

FLAGGED = ("fillers", "long_pauses", "trail_offs")
"""The figures that count as flagged moments."""

MIN_PACE_WORDS = 6
"""A stretch with fewer lexical words has no pace judged (too short to measure)."""

PACE_SAME_WPM = 5.0
"""A change of pace under this is "same", words per minute."""


@dataclass(frozen=True)
class Sentence:
    """A sentence of the earlier talk and what was flagged in it."""

    index: int
    """Its place in the talk, from 1."""
    text: str
    """The words as recognised."""
    start_s: float
    """Start in the talk's recording, seconds."""
    end_s: float
    """End in the talk's recording, seconds."""
    figures: dict[str, float | None]
    """:func:`figures_of` the sentence."""
    flags: int
    """Flagged moments: fillers, long pauses and sentence ends trailing off."""


def _is_sentence_end(text: str) -> bool:
    return text.strip().rstrip("\"')”’").endswith((".", "?", "!"))


def _lexical_count(words: Sequence[Mapping[str, Any]]) -> int:
    n = 0
    for w in words:
        t = str(w["text"]).strip().rstrip(",.?!")
        if not w.get("filler") and t and not t.endswith("-") and not t.startswith("-"):
            n += 1
    return n


def figures_of(talk: Mapping[str, Any], start_s: float, end_s: float) -> dict[str, float | None]:
    """The figures of a stretch of a report (``ClipReport.to_dict()``), ``start_s`` to
    ``end_s``: fillers starting in it, long pauses inside it, sentences trailing off that
    end in it, and its pace (lexical words over its length, None under
    :data:`MIN_PACE_WORDS` words)."""
    eps = 0.05
    words = [w for w in talk.get("words", []) if start_s - eps <= w["start_s"] < end_s + eps]
    fillers = [f for f in talk.get("fillers", {}).get("items", [])
               if start_s - eps <= f["start_s"] < end_s + eps]  # fmt: skip
    pauses = [p for p in talk.get("pauses", {}).get("items", [])
              if p["start_s"] >= start_s - eps and p["end_s"] <= end_s + eps]  # fmt: skip
    trails = [t for t in talk.get("energy", {}).get("trail_offs", [])
              if start_s - eps <= t["end_s"] <= end_s + eps]  # fmt: skip
    n = _lexical_count(words)
    span = end_s - start_s
    wpm = round(n / span * 60, 1) if n >= MIN_PACE_WORDS and span > 0 else None
    return {
        "fillers": float(len(fillers)),
        "long_pauses": float(sum(1 for p in pauses if p.get("long"))),
        "trail_offs": float(len(trails)),
        "wpm": wpm,
    }


def flags_of(figures: Mapping[str, float | None]) -> int:
    """Flagged moments among ``figures`` (:data:`FLAGGED`)."""
    return int(sum(figures.get(k) or 0 for k in FLAGGED))


def sentences(talk: Mapping[str, Any]) -> list[tuple[int, str, float, float]]:
    """The talk's sentences as ``(index from 1, text, start_s, end_s)``: words up to one
    ending in ".", "?" or "!" (the last words form a sentence too)."""
    out: list[tuple[int, str, float, float]] = []
    cur: list[Mapping[str, Any]] = []
    for w in talk.get("words", []):
        cur.append(w)
        if _is_sentence_end(str(w["text"])):
            out.append((len(out) + 1, " ".join(str(x["text"]).strip() for x in cur),
                        cur[0]["start_s"], cur[-1]["end_s"]))  # fmt: skip
            cur = []
    if cur:
        out.append((len(out) + 1, " ".join(str(x["text"]).strip() for x in cur),
                    cur[0]["start_s"], cur[-1]["end_s"]))  # fmt: skip
    return out


def flagged_sentences(talk: Mapping[str, Any], *, n: int = 3) -> list[Sentence]:
    """The ``n`` sentences with the most flagged moments (at least one), in the talk's
    order; ties go to the earlier sentence.

    Args:
        talk: a report as JSON (``ClipReport.to_dict()``, the ``talk`` of a session's
            report.json).
        n: how many sentences at most.
    """
    if n < 1:
        raise OptionsError(f"the again drill needs at least 1 sentence, not {n}")
    found = []
    for index, text, a, b in sentences(talk):
        figs = figures_of(talk, a, b)
        flags = flags_of(figs)
        if flags > 0:
            found.append(Sentence(index, text, round(a, 2), round(b, 2), figs, flags))
    top = sorted(found, key=lambda s: (-s.flags, s.index))[:n]
    return sorted(top, key=lambda s: s.index)


@dataclass(frozen=True)
class FigureChange:
    """One figure, said first and said again."""

    figure: str
    """A name in :data:`FIGURES`."""
    before: float | None
    """In the sentence of the earlier talk (None: not measured)."""
    after: float | None
    """In the retake."""
    verdict: str
    """"better", "worse" or "same" for the flagged figures; "faster", "slower" or "same"
    for pace; "n/a" when not measured in one of them."""


@dataclass(frozen=True)
class Retake:
    """One sentence said again."""

    sentence: Sentence
    """The sentence of the earlier talk."""
    transcript: str
    """The retake as recognised."""
    file: str
    """The retake's recording."""
    figures: dict[str, float | None]
    """:func:`figures_of` the retake."""
    flags: int
    """Flagged moments in the retake."""
    changes: list[FigureChange]
    """Figure by figure, in :data:`FIGURES` order."""


def compare(
    before: Mapping[str, float | None], after: Mapping[str, float | None]
) -> list[FigureChange]:
    """Figure by figure: counts are better lower; pace is faster or slower (a change under
    :data:`PACE_SAME_WPM` is the same)."""
    out = []
    for k in FIGURES:
        a, b = before.get(k), after.get(k)
        if a is None or b is None:
            verdict = "n/a"
        elif k == "wpm":
            verdict = "same" if abs(b - a) < PACE_SAME_WPM else "faster" if b > a else "slower"
        else:
            verdict = "same" if a == b else "better" if b < a else "worse"
        out.append(FigureChange(k, a, b, verdict))
    return out


@dataclass(frozen=True)
class AgainScore:
    """The again drill: the share of the flagged moments the retakes no longer had."""

    score: float | None
    """Sum over the retakes of (flags before - flags after, at least 0) / flags before;
    None with no retake."""
    retakes: list[Retake] = field(default_factory=list)
    """Each sentence said again."""
    flags_before: int = 0
    """Flagged moments in the sentences as first said."""
    flags_after: int = 0
    """Flagged moments in the retakes."""
    source: str = ""
    """The session folder the sentences came from."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)


def score_again(retakes: Sequence[Retake], *, source: str = "") -> AgainScore:
    """Score the retakes (pure)."""
    before = sum(r.sentence.flags for r in retakes)
    gone = sum(max(r.sentence.flags - r.flags, 0) for r in retakes)
    return AgainScore(
        score=round(gone / before, 3) if before else None,
        retakes=list(retakes),
        flags_before=before,
        flags_after=sum(r.flags for r in retakes),
        source=source,
    )


_LABELS = {"fillers": "fillers", "long_pauses": "long pauses", "trail_offs": "trailing off",
           "wpm": "pace wpm"}  # fmt: skip


def again_lines(score: AgainScore) -> list[str]:
    """The comparison as plain lines: per sentence, the figures that were flagged or changed."""
    lines = []
    if score.score is None:
        lines.append("Score: - (no sentence was said again)")
    else:
        lines.append(
            f"Score: {score.score:.0%} of the flagged moments were gone when you said the "
            f"sentences again ({score.flags_before} before, {score.flags_after} after)"
        )
    for i, r in enumerate(score.retakes, 1):
        s = r.sentence
        t = s.start_s
        lines.append(f'{i}. sentence {s.index} of the talk, at {int(t // 60)}:{int(t % 60):02d}: '
                     f'"{s.text}"')  # fmt: skip
        lines.append(f'   again: "{r.transcript}"')
        cells = []
        for c in r.changes:
            if c.verdict == "n/a" or (c.figure != "wpm" and not c.before and not c.after):
                continue
            cells.append(f"{_LABELS[c.figure]} {c.before:.0f} -> {c.after:.0f} {c.verdict}")
        lines.append("   " + ("; ".join(cells) if cells else "no figure to compare"))
    return lines


# --- the session it comes from ---------------------------------------------------------------


def load_session(folder: Path) -> dict[str, Any]:
    """The talk of a session folder (its report.json's ``talk``), checked to have talk.wav.

    Raises:
        OptionsError: no such folder, no talk.wav, or no talk in report.json.
    """
    report, wav = folder / "report.json", folder / "talk.wav"
    if not report.is_file() or not wav.is_file():
        raise OptionsError(
            f"{folder}: not a session folder with talk.wav and report.json; name a folder "
            "that `coach rehearse` or `coach drill` saved"
        )
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise OptionsError(f"{report}: cannot read the session's report ({exc})") from exc
    talk = data.get("talk") if isinstance(data, dict) else None
    if not isinstance(talk, dict) or not talk.get("words"):
        raise OptionsError(f"{report}: the session has no talk with words to say again")
    return talk


def last_session(history: Any) -> Path:
    """The most recent rehearsal or drill (not ``again``) in the history whose folder still
    holds its talk (talk.wav and report.json).

    Raises:
        OptionsError: there is none (says what to run).
    """
    runs = [(s.started, s.folder) for s in history.sessions("rehearse")]
    runs += [(d.started, d.folder) for d in history.drills() if d.drill != "again"]
    for _, name in sorted(runs, reverse=True):
        folder = Path(name)
        if (folder / "talk.wav").is_file() and (folder / "report.json").is_file():
            return folder
    raise OptionsError(
        "no rehearsal or drill with its talk.wav in the history: run `coach rehearse` or "
        "`coach drill pauses` first, or name a session folder with --session DIR"
    )


# --- playing and recording -------------------------------------------------------------------


def play_sentence(sink: Any, wav: Path, sentence: Sentence, *, margin_s: float = 0.15) -> None:
    """Play a sentence's audio from the talk's recording through ``sink`` and wait for it."""
    import numpy as np
    import soundfile as sf

    from coach.tts import SpeechChunk

    with sf.SoundFile(wav) as f:
        rate = f.samplerate
        a = max(0, int((sentence.start_s - margin_s) * rate))
        f.seek(min(a, f.frames))
        n = int((sentence.end_s - sentence.start_s + 2 * margin_s) * rate)
        samples = f.read(n, dtype="int16", always_2d=False)
    if samples.ndim > 1:
        samples = samples.mean(axis=1).astype(np.int16)
    sink.play(SpeechChunk(sentence.text, samples, rate, 0.0))
    sink.drain()


def record_retake(
    voice: Any,
    transcriber: Any,
    live: Any,
    index: int,
    *,
    wav_path: Path,
    stop: threading.Event,
    turn_silence_s: float = 1.5,
    max_s: float = 30.0,
) -> Any:
    """Record retake ``index`` (0-based) from ``voice.answer``: until ``turn_silence_s`` of
    silence after speech, ``max_s`` seconds, the end of the input, or ``stop``. Returns its
    ClipReport, or None when the input has no more retakes."""
    from coach.live.recorder import TalkRecorder

    frames = voice.answer(index, stop)
    if frames is None:
        return None
    recorder = TalkRecorder(transcriber, live, wav_path=wav_path)
    try:
        for frame in frames:
            recorder.feed(frame)
            if recorder.had_speech and recorder.silence_s >= turn_silence_s:
                break
            if frame.end_s >= max_s:
                break
    except BaseException:
        recorder.close()
        raise
    return recorder.finish(file=str(wav_path))


def run_again(
    voice: Any,
    transcriber: Any,
    live: Any,
    sink: Any,
    *,
    source: Path,
    folder: Any,
    n: int = 3,
    stop: threading.Event | None = None,
    say: Callable[[str], None] = lambda _line: None,
) -> tuple[AgainScore, str]:
    """The whole again drill: pick the sentences of ``source``, play each, record the retake,
    compare. Writes the retakes and report.json to ``folder``.

    Returns:
        The score, and the local start time (ISO 8601).

    Raises:
        OptionsError: the source session cannot be read, or has no flagged sentence.
        CoachError: no retake had speech.
    """
    started = dt.datetime.now().isoformat(timespec="seconds")
    talk = load_session(source)
    picked = flagged_sentences(talk, n=n)
    if not picked:
        raise OptionsError(f"{source}: no sentence of that talk has a flagged moment to say again")
    stop = stop or threading.Event()
    retakes = []
    for i, s in enumerate(picked):
        say(f"Sentence {i + 1} of {len(picked)} ({s.flags} flagged): {s.text}")
        play_sentence(sink, source / "talk.wav", s)
        wav = folder.file(f"answers/again_{i + 1:02d}.wav")
        report = record_retake(voice, transcriber, live, i, wav_path=wav, stop=stop)
        if report is None:
            say("no more retakes: the drill ends here")
            break
        if not report.ok or report.word_count == 0:
            say("no speech heard in that retake: skipped")
            continue
        d = report.to_dict()
        words = d["words"]
        figs = figures_of(d, words[0]["start_s"], max(w["end_s"] for w in words))
        retakes.append(
            Retake(s, report.transcript, str(wav), figs, flags_of(figs), compare(s.figures, figs))
        )
    if not retakes:
        raise CoachError("no speech was heard in any retake; check the microphone or --retakes")
    score = score_again(retakes, source=str(source))
    folder.write_json("report.json", {"schema": 1, "kind": "drill", "drill": "again",
                                      "started": started, "score": score.to_dict()})  # fmt: skip
    return score, started
