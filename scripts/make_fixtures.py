"""Generate coach's test fixtures into audio_fixtures/ with a manifest of what each holds.

Speech comes from the Piper voice en_US-joe-medium with the generator noise turned off
(``noise_scale = noise_w_scale = 0``), which makes synthesis deterministic. Every phrase is
synthesised on its own, resampled to 16 kHz, trimmed to where its sound starts and ends,
and joined to the next with digital silence of a known length, so the start and end of
every phrase, filler and silence is known to the sample. Tones and noise come from numpy.
answers/answer_01.wav ... answer_06.wav are replies to audience questions about the
practice talk, for ``coach rehearse --answers`` (answer_02 dodges; answer_03 answers the
follow-up). interview/answer_01.wav ... answer_08.wav are a candidate's replies in a mock
interview for a junior data analyst, for ``coach interview --answers`` (answer_03 and
answer_06 are vague; answer_04 and answer_07 answer the follow-ups).

Run from the repository root (re-running writes the same bytes)::

    .venv/bin/python scripts/make_fixtures.py

The files are committed, so keep them small: 16 kHz mono 16-bit wav unless a test needs
another format.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_VOICE = ROOT / "models" / "en_US-joe-medium" / "en_US-joe-medium.onnx"
DEFAULT_OUT = ROOT / "audio_fixtures"

SR = 16000
"""Sample rate of every fixture except stereo_44k.flac, Hz."""
SPEECH_PEAK = 0.5
"""Peak level of each speech phrase (Piper normalises each phrase to full scale first)."""
FILLER_PEAK = 0.4
"""Peak level of each filled pause: a little quieter than the words around it."""
TRIM_DB = -45.0
"""A phrase's sound starts at the first 10 ms frame above this level (dB re full scale)
and ends after the last one; quieter edges are cut off before the phrase is placed."""
INNER_GAP_S = 0.1
"""Stretches inside a phrase below TRIM_DB at least this long (s) are listed in the
manifest as inner gaps (Piper pauses briefly at commas)."""
FILLER_LENGTH_SCALE = 2.0
"""Piper length scale for filled pauses: a drawn-out "um"/"uh" as people say them."""

GAP_S = {
    "lead": 0.5,  # before the first phrase
    "join": 0.2,  # around fillers: shorter than the 0.25 s pause floor, so not a pause
    "sentence": 0.4,  # between sentences
    "clause": 0.4,  # after a comma
    "long": 2.0,  # long pause at a sentence end
    "within_clause": 1.6,  # hesitation in the middle of a clause
    "tail": 0.5,  # after the last phrase (padded up to a whole 30 ms frame)
}
"""Silence lengths in seconds, by where the silence falls."""

_TOKEN_RE = re.compile(r"[a-z0-9]+(?:'[a-z]+)*")


def _tokens(text: str) -> list[str]:
    """Lower-case word tokens, counted the way coach.transcript.tokens counts them."""
    return _TOKEN_RE.findall(text.lower().replace("’", "'"))


# --- the practice talk --------------------------------------------------------------------


@dataclass(frozen=True)
class Say:
    """A phrase of words."""

    text: str
    hedges: tuple[str, ...] = ()
    """Hedges the phrase contains (coach.analysis.disfluency.HEDGES phrases)."""
    note: str = ""


@dataclass(frozen=True)
class Filled:
    """A filled pause ("um", "uh"), synthesised as a phrase of its own."""

    text: str


@dataclass(frozen=True)
class Discourse:
    """A discourse filler ("you know,", "like,"), synthesised as a phrase of its own."""

    text: str


@dataclass(frozen=True)
class Gap:
    """Digital silence of GAP_S[position] seconds."""

    position: str


TALK: list[Say | Filled | Discourse | Gap] = [
    Say("Good morning everyone."),
    Gap("sentence"),
    Say("Today I want to make the case for code review on every pull request."),
    Gap("long"),
    Say("Last year we merged 140 changes without a second pair of eyes,"),
    Gap("join"),
    Filled("um"),
    Gap("join"),
    Say("and 23 of them broke the build."),
    Gap("sentence"),
    Say("That cost us about 60 hours of firefighting."),
    Gap("sentence"),
    Say("A careful review takes,"),
    Gap("join"),
    Discourse("you know,"),
    Gap("join"),
    Say("20 minutes on average."),
    Gap("sentence"),
    Say("I think the trade is", hedges=("i think",)),
    Gap("within_clause"),
    Say("clearly worth it."),
    Gap("long"),
    Say("Tools like GitHub and Gerrit make the process easy.", note='"like" is a preposition'),
    Gap("sentence"),
    Say("We would"),
    Gap("join"),
    Filled("uh"),
    Gap("join"),
    Say("start with one reviewer per change,"),
    Gap("clause"),
    Say("and maybe add a second reviewer for the payment service.", hedges=("maybe",)),
    Gap("sentence"),
    Filled("um"),
    Gap("join"),
    Say("the checklist covers tests and naming and security."),
    Gap("sentence"),
    Say("Reviews also spread knowledge,"),
    Gap("join"),
    Discourse("like,"),
    Gap("join"),
    Say("new hires learn our style much faster."),
    Gap("long"),
    Filled("uh"),
    Gap("join"),
    Say("Let's just try it for two weeks.", hedges=("just",)),
    Gap("sentence"),
    Say("Thank you."),
]
"""The practice talk, phrase by phrase (a lead and a tail silence are added)."""

CLEAN_SENTENCE = "Clear reviews help the whole team ship better software every week."


# --- answers to audience questions ----------------------------------------------------------

ANSWER_GAP_S = {
    "lead": 0.5,  # before the first phrase
    "join": 0.2,  # around the filled pause, as in the talk
    "clause": 0.3,  # after a comma
    "sentence": 0.4,  # between sentences
    "beat": 0.6,  # a longer breath between sentences
    "tail": 0.6,  # after the last phrase (padded up to a whole 30 ms frame)
}
"""Silence lengths in seconds inside the answer recordings, by where the silence falls."""
ANSWER_MAX_SILENCE_S = 0.7
"""Every silence inside an answer stays below this: the live endpointer closes an answer
after about 0.8-1.2 s of silence, and an answer must reach it as one utterance."""


@dataclass(frozen=True)
class Answer:
    """One recorded reply to a question from the rehearsal audience."""

    topic: str
    """The point of the talk the answer is written for (the questions come from an LLM, so
    this is the kind of question it fits, not a known question)."""
    items: tuple[Say | Filled | Gap, ...]
    dodge: bool = False
    """True for an answer that avoids the question (no specifics): it should draw a
    follow-up question."""


ANSWERS: list[Answer] = [
    Answer(
        "the 23 broken builds and the 60 hours of firefighting",
        (
            Say("I checked our CI history."),
            Gap("sentence"),
            Say("15 of the 23 breaks were missing tests,"),
            Gap("clause"),
            Say("and I logged 60 hours fixing them."),
        ),
    ),
    Answer(
        "any question: the dodge",
        (
            Say("That's a good question."),
            Gap("sentence"),
            Say("I'm not sure, I'd have to think about it.", hedges=("i'm not sure",)),
        ),
        dodge=True,
    ),
    Answer(
        "the follow-up to the dodge: what the 20 minute reviews cost and how to measure it",
        (
            Say("Let me be concrete."),
            Gap("sentence"),
            Say("For two weeks,"),
            Gap("join"),
            Filled("uh"),
            Gap("join"),
            Say("I'd log how long each review takes,"),
            Gap("clause"),
            Say("and if it stays under 20 minutes, we keep it."),
        ),
    ),
    Answer(
        "one reviewer or two, and the payment service",
        (
            Say("One reviewer is enough for most changes."),
            Gap("sentence"),
            Say("The payment service gets two,"),
            Gap("clause"),
            Say("because four of the 23 breaks were in payments."),
        ),
    ),
    Answer(
        "the checklist and the tools, GitHub and Gerrit",
        (
            Say("The checklist covers tests, naming and security."),
            Gap("beat"),
            Say("I'll put it in our GitHub template,"),
            Gap("clause"),
            Say("and Gerrit shows it on every change."),
        ),
    ),
    Answer(
        "how new hires learn, and the two-week trial",
        (
            Say("Our two newest hires each reviewed ten changes in their first month."),
            Gap("beat"),
            Say("After the two-week trial, I'll share the numbers,"),
            Gap("clause"),
            Say("and we'll vote on it."),
        ),
    ),
]
"""Replies for ``coach rehearse --answers``, used in order: answer_02 dodges, answer_03
answers the follow-up that the dodge should draw."""


# --- answers in a mock interview ------------------------------------------------------------

INTERVIEW_ROLE = "junior data analyst"
"""The role the candidate in the interview answers is applying for."""
INTERVIEW_STAGES = ("opener", "behavioral", "technical", "closing")
"""The stages of an interview (coach.interview.STAGES), in the order they happen."""
STAR_PARTS = ("situation", "task", "action", "result")
"""The parts of a STAR story (coach.analysis.star.PARTS)."""
QUIET_DB = -40.0
"""A 10 ms frame at or below this level (dBFS) counts as silence when an interview answer's
longest quiet stretch is measured: a digital gap plus the quiet edges of the phrases around
it (Piper's own pauses included) must stay below ANSWER_MAX_SILENCE_S."""


@dataclass(frozen=True)
class InterviewAnswer:
    """One recorded reply of a candidate for INTERVIEW_ROLE in a mock interview."""

    stage: str
    """The interview stage the answer fits (one of INTERVIEW_STAGES)."""
    topic: str
    """The kind of question the answer is written for (the questions come from an LLM or
    a bank at run time, so this is a kind of question, not a known question)."""
    items: tuple[Say | Filled | Discourse | Gap, ...]
    length_s: tuple[float, float]
    """Shortest and longest the recording may be, seconds (lead and tail included)."""
    star: tuple[str, ...] = ()
    """The STAR parts the answer was written to hold (a subset of STAR_PARTS)."""
    vague: bool = False
    """True for an answer with no specifics and no result: it should draw a follow-up."""
    hypothetical: bool = False
    """True for an answer that only says what the candidate would do, with no past example."""
    follows_up: int | None = None
    """0-based index in INTERVIEW_ANSWERS of the vague answer this one follows up."""


INTERVIEW_ANSWERS: list[InterviewAnswer] = [
    InterviewAnswer(
        "opener",
        "tell me about yourself",
        (
            Say("I studied economics,"),
            Gap("clause"),
            Say("then spent a year in reporting at a logistics company."),
            Gap("sentence"),
            Say("Now I'm looking for my first analyst role."),
        ),
        (6.0, 10.0),
        star=("situation",),
    ),
    InterviewAnswer(
        "behavioral",
        "tell me about a time you improved a process",
        (
            Say("Last spring, our weekly report took two days."),
            Gap("sentence"),
            Say("My job was to speed it up."),
            Gap("sentence"),
            Say("I built one SQL query to replace six old reports."),
            Gap("sentence"),
            Say("As a result, it takes 20 minutes."),
        ),
        (10.0, 14.0),
        star=STAR_PARTS,
    ),
    InterviewAnswer(
        "behavioral",
        "tell me about a time you worked with a difficult colleague: the vague answer",
        (
            Say("I usually just try to work well with people and,", hedges=("just",)),
            Gap("join"),
            Discourse("you know,"),
            Gap("join"),
            Say("communicate."),
        ),
        (4.0, 7.0),
        vague=True,
    ),
    InterviewAnswer(
        "behavioral",
        "the follow-up to the vague answer: a specific example of working with others",
        (
            Say("At my last job, two teams counted late orders differently."),
            Gap("sentence"),
            Say("I set up a meeting and wrote one definition."),
            Gap("sentence"),
            Say("Then disputes fell from ten a month to two."),
        ),
        (8.0, 12.0),
        star=("situation", "action", "result"),
        follows_up=2,
    ),
    InterviewAnswer(
        "technical",
        "how would you clean a messy dataset (duplicates, missing values, joins)",
        (
            Say("First I'd remove duplicates and missing values."),
            Gap("sentence"),
            Say("Then,"),
            Gap("join"),
            Filled("uh"),
            Gap("join"),
            Say("I'd fix the date formats,"),
            Gap("clause"),
            Say("and use a left join on customer ID so no orders are lost."),
        ),
        (8.0, 12.0),
    ),
    InterviewAnswer(
        "behavioral",
        "tell me about a time you disagreed with a deadline or a priority: the vague, "
        "hypothetical answer",
        (
            Filled("um"),
            Gap("join"),
            Say("I would probably talk to my manager,", hedges=("probably",)),
            Gap("clause"),
            Say("and try to find a compromise."),
        ),
        (4.0, 7.0),
        vague=True,
        hypothetical=True,
    ),
    InterviewAnswer(
        "behavioral",
        "the follow-up to the hypothetical answer: what actually happened",
        (
            Say("Last March, two managers wanted reports on the same day."),
            Gap("sentence"),
            Say("I asked them to agree on the order,"),
            Gap("clause"),
            Say("and I delivered both reports on time."),
        ),
        (8.0, 12.0),
        star=("situation", "action", "result"),
        follows_up=5,
    ),
    InterviewAnswer(
        "closing",
        "do you have any questions for us",
        (
            Say("What does a typical week look like for the analytics team,"),
            Gap("clause"),
            Say("and how do you measure success in the first six months?"),
        ),
        (4.0, 7.0),
    ),
]
"""Replies for ``coach interview --role "junior data analyst" --answers``, used in order:
opener, a full STAR story, a vague answer (03) and its follow-up (04), a technical answer,
a vague hypothetical (06) and its follow-up (07), and the candidate's question at the
closing."""


# --- audio helpers --------------------------------------------------------------------------


class Voice:
    """Deterministic Piper synthesis to 16 kHz float32."""

    def __init__(self, onnx_path: Path) -> None:
        from piper import PiperVoice

        if not onnx_path.exists():
            raise SystemExit(f"{onnx_path}: Piper voice not found (run `make models`)")
        self.voice = PiperVoice.load(str(onnx_path))
        self.name = onnx_path.stem

    def say(self, text: str, *, length_scale: float | None = None) -> np.ndarray:
        """Synthesise one phrase: 16 kHz float32, peak 1.0, untrimmed."""
        import librosa
        from piper.config import SynthesisConfig

        cfg = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0, length_scale=length_scale)
        chunks = list(self.voice.synthesize(text, syn_config=cfg))
        audio = np.concatenate([c.audio_float_array for c in chunks]).astype(np.float64)
        rate = chunks[0].sample_rate
        audio = librosa.resample(audio, orig_sr=rate, target_sr=SR, res_type="soxr_hq")
        return (audio / np.max(np.abs(audio))).astype(np.float32)


def _frame_db(x: np.ndarray, hop: int = SR // 100) -> np.ndarray:
    n = x.size // hop
    frames = x[: n * hop].reshape(n, hop).astype(np.float64)
    return 20 * np.log10(np.maximum(np.sqrt((frames**2).mean(axis=1)), 1e-9))


def trim(x: np.ndarray) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """Cut a phrase to its first..last 10 ms frame above TRIM_DB.

    Returns:
        (trimmed samples, inner gaps as (start, end) in seconds from the trimmed start).
    """
    hop = SR // 100
    loud = _frame_db(x, hop) > TRIM_DB
    idx = np.flatnonzero(loud)
    a, b = int(idx[0]), int(idx[-1]) + 1
    inner = []
    seg = np.concatenate([[True], loud[a:b], [True]])
    edges = np.flatnonzero(np.diff(seg.astype(np.int8)))
    for s, e in zip(edges[::2], edges[1::2], strict=True):
        if (e - s) * hop / SR >= INNER_GAP_S:
            inner.append((round(s * hop / SR, 3), round(e * hop / SR, 3)))
    return x[a * hop : b * hop], inner


def to_int16(x: np.ndarray) -> np.ndarray:
    return np.round(np.clip(x, -1.0, 1.0) * 32767.0).astype(np.int16)


def wav_bytes(pcm: np.ndarray, rate: int = SR) -> bytes:
    """16-bit PCM wav (plain 44-byte header) of int16 samples, mono or (n, channels)."""
    channels = 1 if pcm.ndim == 1 else pcm.shape[1]
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.astype("<i2").tobytes())
    return buf.getvalue()


def sec(n: int) -> float:
    """Samples at 16 kHz to seconds, rounded to the sample (1/16000 s is 0.0000625 s)."""
    return round(n / SR, 7)


# --- fixture builders -----------------------------------------------------------------------


def _show(path: Path) -> Path:
    return path.relative_to(ROOT) if path.resolve().is_relative_to(ROOT) else path


class Writer:
    """Writes files into the fixture folder and keeps the manifest."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.entries: dict[str, dict] = {}
        out.mkdir(parents=True, exist_ok=True)

    def write(self, name: str, data: bytes, entry: dict) -> None:
        path = self.out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        entry = {"file": name, "bytes": len(data), **entry}
        entry["sha256"] = hashlib.sha256(data).hexdigest()
        self.entries[name] = entry
        seconds = f"{entry['duration_s']:.3f} s" if "duration_s" in entry else ""
        print(f"wrote {_show(path)}  {len(data):>8} bytes  {seconds}")


@dataclass(frozen=True)
class Placed:
    """Phrases and silences laid end to end, and what the manifest says about them."""

    samples: np.ndarray
    segments: list[dict]
    """Every phrase, filler and silence in order, with exact start and end times."""
    fillers: list[dict]
    hedges: list[dict]
    lexical: int
    """Tokens of the Say phrases (fillers excluded)."""


def assemble(
    voice: Voice, items: list[Say | Filled | Discourse | Gap], gaps: dict[str, float]
) -> Placed:
    """Synthesise ``items`` and lay them out between a lead and a tail silence.

    Args:
        voice: the Piper voice.
        items: phrases, fillers and silences in order (no lead or tail: they are added).
        gaps: silence lengths in seconds by position; must hold "lead" and "tail" and every
            position a Gap in ``items`` names. The tail is padded up so the clip is a whole
            number of 30 ms frames.
    """
    parts: list[np.ndarray] = []
    pos = 0
    segments: list[dict] = []
    fillers: list[dict] = []
    hedges: list[dict] = []
    lexical = 0

    def silence(position: str, seconds: float) -> None:
        nonlocal pos
        n = int(round(seconds * SR))
        parts.append(np.zeros(n, np.float32))
        segments.append({"kind": "silence", "position": position, "start_s": sec(pos),
                         "end_s": sec(pos + n), "duration_s": sec(n)})  # fmt: skip
        pos += n

    silence("lead", gaps["lead"])
    for item in items:
        if isinstance(item, Gap):
            silence(item.position, gaps[item.position])
            continue
        if isinstance(item, Filled):
            audio, inner = trim(voice.say(item.text, length_scale=FILLER_LENGTH_SCALE))
            audio = audio * FILLER_PEAK
            kind = "filled_pause"
        else:
            audio, inner = trim(voice.say(item.text))
            audio = audio * SPEECH_PEAK
            kind = "discourse_filler" if isinstance(item, Discourse) else "speech"
        start, end = sec(pos), sec(pos + audio.size)
        words = _tokens(item.text)
        seg = {"kind": kind, "text": item.text, "start_s": start, "end_s": end,
               "duration_s": sec(audio.size), "tokens": len(words)}  # fmt: skip
        if inner:
            seg["inner_gaps"] = [[round(start + a, 3), round(start + b, 3)] for a, b in inner]
        if isinstance(item, Say):
            lexical += len(words)
            if item.hedges:
                seg["hedges"] = list(item.hedges)
            if item.note:
                seg["note"] = item.note
            for h in item.hedges:
                hedges.append({"text": h, "phrase_start_s": start, "phrase_end_s": end})
        else:
            canon = " ".join(words)
            fillers.append({"text": canon, "kind": kind.replace("_filler", ""),
                            "start_s": start, "end_s": end})  # fmt: skip
        segments.append(seg)
        parts.append(audio.astype(np.float32))
        pos += audio.size
    # tail: at least gaps["tail"], padded so the clip is a whole number of 30 ms frames
    n_tail = int(round(gaps["tail"] * SR))
    n_tail += (-(pos + n_tail)) % 480
    silence("tail", n_tail / SR)
    return Placed(np.concatenate(parts), segments, fillers, hedges, lexical)


def _counts(items: list[dict]) -> dict[str, int]:
    """How often each ``text`` occurs, in first-seen order."""
    out: dict[str, int] = {}
    for it in items:
        out[it["text"]] = out.get(it["text"], 0) + 1
    return out


def build_talk(voice: Voice) -> tuple[np.ndarray, dict]:
    """The practice talk: samples and its manifest entry."""
    placed = assemble(voice, TALK, GAP_S)
    samples, segments, fillers = placed.samples, placed.segments, placed.fillers

    spoken = [s for s in segments if s["kind"] != "silence"]
    first, last = spoken[0]["start_s"], spoken[-1]["end_s"]
    pauses = [
        s for s in segments
        if s["kind"] == "silence" and s["position"] not in ("lead", "tail", "join")
    ]  # fmt: skip
    filled = [f for f in fillers if f["kind"] == "filled_pause"]
    disc = [f for f in fillers if f["kind"] == "discourse"]
    inner_max = max((b - a for s in spoken for a, b in s.get("inner_gaps", [])), default=0.0)

    entry = {
        "description": (
            "A practice talk arguing for code review, built phrase by phrase from Piper "
            "speech with inserted digital silences. Filled pauses and discourse fillers are "
            "phrases of their own, set off by 0.2 s joins; 0.4 s between sentences and after "
            "the clause comma; three 2.0 s pauses at sentence ends; one 1.6 s pause inside "
            "the clause 'I think the trade is ... clearly worth it.'"
        ),
        "sample_rate_hz": SR,
        "channels": 1,
        "format": "wav pcm_s16le",
        "samples": int(samples.size),
        "duration_s": sec(samples.size),
        "speech_span_s": [first, last],
        "segments": segments,
        "fillers": fillers,
        "hedges": placed.hedges,
        "expected": {
            "lexical_words": placed.lexical,
            "lexical_words_note": (
                "tokens of the speech phrases as written (digits count as one word, as "
                "Whisper writes them); filled pauses and discourse fillers excluded, hedges "
                "included"
            ),
            "filled_pauses": _counts(filled),
            "discourse_fillers": _counts(disc),
            "fillers_total": len(fillers),
            "hedges": _counts(placed.hedges),
            "pauses_min_s": 0.25,
            "pauses": len(pauses),
            "pauses_by_position": _counts(
                [{"text": "sentence" if p["position"] == "long" else p["position"]} for p in pauses]
            ),  # fmt: skip
            "long_pauses_min_s": 1.5,
            "long_pauses": sum(p["duration_s"] >= 1.5 for p in pauses),
            "pause_total_s": round(sum(p["duration_s"] for p in pauses), 4),
            "longest_inner_gap_s": round(inner_max, 3),
            "inner_gap_note": (
                "inner_gaps are stretches below the trim level inside a phrase (Piper's own "
                "short pauses); none reaches the 0.25 s pause floor"
                if inner_max < 0.25
                else "some inner gaps reach 0.25 s and would count as pauses"
            ),
        },
    }
    return samples, entry


def build_answer(voice: Voice, answer: Answer) -> tuple[np.ndarray, dict]:
    """One answer recording: samples and its manifest entry (without the voice)."""
    placed = assemble(voice, list(answer.items), ANSWER_GAP_S)
    segments = placed.segments
    spoken = [s for s in segments if s["kind"] != "silence"]
    inner = [
        s for s in segments if s["kind"] == "silence" and s["position"] not in ("lead", "tail")
    ]
    longest = max((s["duration_s"] for s in inner), default=0.0)
    inner_max = max((b - a for s in spoken for a, b in s.get("inner_gaps", [])), default=0.0)
    duration = sec(placed.samples.size)
    low, high = (3.0, 5.0) if answer.dodge else (5.0, 12.0)
    if not low <= duration <= high or max(longest, inner_max) >= ANSWER_MAX_SILENCE_S:
        raise SystemExit(
            f"answer on {answer.topic!r}: {duration:.2f} s (want {low}-{high} s), longest "
            f"silence {max(longest, inner_max):.2f} s (want < {ANSWER_MAX_SILENCE_S} s)"
        )
    filled = [f for f in placed.fillers if f["kind"] == "filled_pause"]
    entry = {
        "description": (
            "A dodge: it names no number, action or detail, so the audience should ask a follow-up."
            if answer.dodge
            else f"A specific answer (numbers, first-person actions) on {answer.topic}."
        )
        + f" Phrases as in practice_talk, between a {ANSWER_GAP_S['lead']} s lead and a "
        f"{ANSWER_GAP_S['tail']} s tail; every "
        f"silence inside is below {ANSWER_MAX_SILENCE_S} s so the live endpointer keeps the "
        "answer as one utterance.",
        "topic": answer.topic,
        "dodge": answer.dodge,
        "text": " ".join(s["text"] for s in spoken),
        "sample_rate_hz": SR,
        "channels": 1,
        "format": "wav pcm_s16le",
        "samples": int(placed.samples.size),
        "duration_s": duration,
        "speech_span_s": [spoken[0]["start_s"], spoken[-1]["end_s"]],
        "segments": segments,
        "fillers": placed.fillers,
        "hedges": placed.hedges,
        "expected": {
            "lexical_words": placed.lexical,
            "lexical_words_note": "tokens of the speech phrases as written; fillers excluded",
            "filled_pauses": _counts(filled),
            "fillers_total": len(placed.fillers),
            "hedges": _counts(placed.hedges),
            "longest_inner_silence_s": longest,
            "longest_inner_gap_s": round(inner_max, 3),
            "max_inner_silence_s": ANSWER_MAX_SILENCE_S,
        },
    }
    return placed.samples, entry


def longest_quiet_s(x: np.ndarray) -> float:
    """Longest run of 10 ms frames at or below QUIET_DB between the first and last louder
    frame of ``x``, seconds."""
    quiet = _frame_db(x) <= QUIET_DB
    loud = np.flatnonzero(~quiet)
    best = run = 0
    for q in quiet[loud[0] : loud[-1] + 1]:
        run = run + 1 if q else 0
        best = max(best, run)
    return round(best / 100, 2)


def build_interview_answer(voice: Voice, index: int) -> tuple[np.ndarray, dict]:
    """Interview answer ``INTERVIEW_ANSWERS[index]``: samples and its manifest entry."""
    answer = INTERVIEW_ANSWERS[index]
    if answer.stage not in INTERVIEW_STAGES or not set(answer.star) <= set(STAR_PARTS):
        raise SystemExit(f"interview answer {index + 1}: bad stage or STAR parts")
    placed = assemble(voice, list(answer.items), ANSWER_GAP_S)
    segments = placed.segments
    spoken = [s for s in segments if s["kind"] != "silence"]
    inner = [
        s for s in segments if s["kind"] == "silence" and s["position"] not in ("lead", "tail")
    ]
    longest = max((s["duration_s"] for s in inner), default=0.0)
    inner_max = max((b - a for s in spoken for a, b in s.get("inner_gaps", [])), default=0.0)
    quiet = longest_quiet_s(to_int16(placed.samples) / 32767.0)
    duration = sec(placed.samples.size)
    low, high = answer.length_s
    if not low <= duration <= high or max(longest, inner_max, quiet) >= ANSWER_MAX_SILENCE_S:
        raise SystemExit(
            f"interview answer {index + 1} on {answer.topic!r}: {duration:.2f} s (want "
            f"{low}-{high} s), longest silence {max(longest, inner_max, quiet):.2f} s (want "
            f"< {ANSWER_MAX_SILENCE_S} s)"
        )
    filled = [f for f in placed.fillers if f["kind"] == "filled_pause"]
    disc = [f for f in placed.fillers if f["kind"] == "discourse"]
    if answer.vague:
        what = (
            f"A vague {answer.stage} answer: no number, named detail, past action or result"
            + (", only what the candidate would do" if answer.hypothetical else "")
            + ", so the interviewer should ask a follow-up."
        )
    elif answer.follows_up is not None:
        what = (
            f"The follow-up to interview/answer_{answer.follows_up + 1:02d} (follows_up is "
            "its index in interview_answers): specifics (numbers, first-person past actions, "
            f"a result) on {answer.topic}."
        )
    else:
        what = f"A specific {answer.stage} answer on {answer.topic}."
    entry = {
        "description": what + f" Spoken by a candidate for a {INTERVIEW_ROLE} role; phrases as in "
        f"practice_talk, between a {ANSWER_GAP_S['lead']} s lead and a "
        f"{ANSWER_GAP_S['tail']} s tail; every silence inside is below "
        f"{ANSWER_MAX_SILENCE_S} s so the live endpointer keeps the answer as one utterance.",
        "role": INTERVIEW_ROLE,
        "stage": answer.stage,
        "topic": answer.topic,
        "vague": answer.vague,
        "hypothetical": answer.hypothetical,
        "star": {part: part in answer.star for part in STAR_PARTS},
        "follows_up": answer.follows_up,
        "text": " ".join(s["text"] for s in spoken),
        "sample_rate_hz": SR,
        "channels": 1,
        "format": "wav pcm_s16le",
        "samples": int(placed.samples.size),
        "duration_s": duration,
        "length_s": list(answer.length_s),
        "speech_span_s": [spoken[0]["start_s"], spoken[-1]["end_s"]],
        "segments": segments,
        "fillers": placed.fillers,
        "hedges": placed.hedges,
        "expected": {
            "lexical_words": placed.lexical,
            "lexical_words_note": "tokens of the speech phrases as written; fillers excluded",
            "filled_pauses": _counts(filled),
            "discourse_fillers": _counts(disc),
            "fillers_total": len(placed.fillers),
            "hedges": _counts(placed.hedges),
            "star_parts": len(answer.star),
            "longest_inner_silence_s": longest,
            "longest_inner_gap_s": round(inner_max, 3),
            "longest_quiet_s": quiet,
            "longest_quiet_note": f"longest run of 10 ms frames at or below {QUIET_DB:.0f} dBFS "
            "between the first and last louder frame: a silence plus the quiet phrase edges",
            "max_inner_silence_s": ANSWER_MAX_SILENCE_S,
        },
    }
    return placed.samples, entry


def single_phrase(voice: Voice, text: str) -> tuple[np.ndarray, dict]:
    audio, inner = trim(voice.say(text))
    audio = audio * SPEECH_PEAK
    lead = int(GAP_S["lead"] * SR)
    n_tail = int(GAP_S["tail"] * SR)
    n_tail += (-(lead + audio.size + n_tail)) % 480
    samples = np.concatenate([np.zeros(lead, np.float32), audio, np.zeros(n_tail, np.float32)])
    start, end = sec(lead), sec(lead + audio.size)
    seg = {"kind": "speech", "text": text, "start_s": start, "end_s": end,
           "duration_s": sec(audio.size), "tokens": len(_tokens(text))}  # fmt: skip
    if inner:
        seg["inner_gaps"] = [[round(start + a, 3), round(start + b, 3)] for a, b in inner]
    entry = {
        "description": "One fluent sentence, no fillers, between 0.5 s silences.",
        "sample_rate_hz": SR,
        "channels": 1,
        "format": "wav pcm_s16le",
        "samples": int(samples.size),
        "duration_s": sec(samples.size),
        "speech_span_s": [start, end],
        "segments": [
            {"kind": "silence", "position": "lead", "start_s": 0.0, "end_s": start,
             "duration_s": start},
            seg,
            {"kind": "silence", "position": "tail", "start_s": end,
             "end_s": sec(samples.size), "duration_s": sec(n_tail)},
        ],
        "fillers": [],
        "expected": {"lexical_words": len(_tokens(text)), "fillers_total": 0, "pauses": 0},
    }  # fmt: skip
    return samples, entry


def tone(freq_hz: float, seconds: float, *, end_hz: float | None = None) -> np.ndarray:
    """Sine at ``freq_hz``, or an exponential glide to ``end_hz``; peak 0.5, 10 ms fades."""
    n = int(seconds * SR)
    t = np.arange(n) / SR
    if end_hz is None:
        phase = 2 * np.pi * freq_hz * t
    else:
        r = end_hz / freq_hz
        phase = 2 * np.pi * freq_hz * seconds / np.log(r) * (r ** (t / seconds) - 1)
    x = 0.5 * np.sin(phase)
    fade = int(0.01 * SR)
    ramp = np.linspace(0.0, 1.0, fade)
    x[:fade] *= ramp
    x[-fade:] *= ramp[::-1]
    return x.astype(np.float32)


def flac_stereo_44k(mono16k: np.ndarray) -> bytes:
    """Left = the clip, right = half of it, at 44.1 kHz, as 16-bit FLAC."""
    import librosa
    import soundfile as sf

    up = librosa.resample(mono16k.astype(np.float64), orig_sr=SR, target_sr=44100,
                          res_type="soxr_hq")  # fmt: skip
    stereo = np.stack([up, 0.5 * up], axis=1)
    buf = io.BytesIO()
    sf.write(buf, to_int16(stereo), 44100, format="FLAC", subtype="PCM_16")
    return buf.getvalue()


def encode(
    mono16k: np.ndarray, *, container: str, codec: str, rate: int = SR, bit_rate: int = 32000
) -> bytes:
    """Encode mono audio with PyAV (bit-exact flags so re-runs match).

    Args:
        mono16k: float samples at 16 kHz.
        container: FFmpeg muxer name (mp3, ipod for .m4a, ogg).
        codec: encoder name (libmp3lame, aac, libopus).
        rate: encoder sample rate in Hz (the audio is resampled to it; opus needs 48000).
        bit_rate: target bit rate in bit/s.
    """
    import av
    import librosa

    pcm_f = mono16k.astype(np.float64)
    if rate != SR:
        pcm_f = librosa.resample(pcm_f, orig_sr=SR, target_sr=rate, res_type="soxr_hq")
    pcm = to_int16(pcm_f)
    buf = io.BytesIO()
    with av.open(buf, "w", format=container, options={"fflags": "+bitexact"}) as out:
        stream = out.add_stream(codec, rate=rate, layout="mono")
        stream.bit_rate = bit_rate
        stream.codec_context.flags |= av.codec.context.Flags.bitexact
        resampler = av.AudioResampler(format=stream.codec_context.format, layout="mono", rate=rate)
        step = 960
        for i in range(0, pcm.size, step):
            frame = av.AudioFrame.from_ndarray(pcm[i : i + step][None, :], format="s16",
                                               layout="mono")  # fmt: skip
            frame.sample_rate = rate
            frame.pts = i
            for rframe in resampler.resample(frame):
                for packet in stream.encode(rframe):
                    out.mux(packet)
        for rframe in resampler.resample(None):
            for packet in stream.encode(rframe):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return buf.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voice", type=Path, default=DEFAULT_VOICE, help="Piper .onnx voice")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="fixture folder")
    args = parser.parse_args()

    w = Writer(args.out)
    voice = Voice(args.voice)

    talk, entry = build_talk(voice)
    entry["voice"] = voice.name
    w.write("practice_talk.wav", wav_bytes(to_int16(talk)), entry)

    clean, entry = single_phrase(voice, CLEAN_SENTENCE)
    entry["voice"] = voice.name
    clean_wav = wav_bytes(to_int16(clean))
    w.write("clean_sentence.wav", clean_wav, entry)

    w.write("silence.wav", wav_bytes(np.zeros(3 * SR, np.int16)), {
        "description": "3 s of digital silence (all samples 0).",
        "sample_rate_hz": SR, "channels": 1, "format": "wav pcm_s16le",
        "samples": 3 * SR, "duration_s": 3.0, "segments": [], "fillers": [],
    })  # fmt: skip
    rng = np.random.default_rng(20240601)
    noise = rng.normal(0.0, 0.003, 3 * SR)
    w.write("noise.wav", wav_bytes(to_int16(noise)), {
        "description": "3 s of low white noise (Gaussian, RMS 0.003 = about -50 dBFS, seed "
                       "20240601); no speech.",
        "sample_rate_hz": SR, "channels": 1, "format": "wav pcm_s16le",
        "samples": 3 * SR, "duration_s": 3.0, "rms": 0.003, "segments": [], "fillers": [],
    })  # fmt: skip
    w.write("tone_220hz.wav", wav_bytes(to_int16(tone(220.0, 2.0))), {
        "description": "2 s sine at 220 Hz, peak 0.5, 10 ms linear fades.",
        "sample_rate_hz": SR, "channels": 1, "format": "wav pcm_s16le",
        "samples": 2 * SR, "duration_s": 2.0, "pitch_hz": 220.0,
    })  # fmt: skip
    w.write("tone_glide.wav", wav_bytes(to_int16(tone(150.0, 2.0, end_hz=300.0))), {
        "description": "2 s exponential glide from 150 Hz to 300 Hz (one octave, uniform in "
                       "semitones: std 12/sqrt(12) = 3.46 st), peak 0.5, 10 ms fades.",
        "sample_rate_hz": SR, "channels": 1, "format": "wav pcm_s16le",
        "samples": 2 * SR, "duration_s": 2.0, "pitch_start_hz": 150.0, "pitch_end_hz": 300.0,
    })  # fmt: skip
    w.write("stereo_44k.flac", flac_stereo_44k(clean), {
        "description": "clean_sentence at 44.1 kHz stereo FLAC: left = clean_sentence, right "
                       "= 0.5 x clean_sentence, so averaging the channels gives 0.75 x "
                       "clean_sentence.",
        "sample_rate_hz": 44100, "channels": 2, "format": "flac",
        "duration_s": sec(clean.size), "source": "clean_sentence.wav", "mono_gain": 0.75,
    })  # fmt: skip
    try:
        short = talk[: 10 * SR]
        w.write("practice_short.mp3", encode(short, container="mp3", codec="libmp3lame"), {
            "description": "First 10 s of practice_talk as 32 kbit/s mono mp3 (16 kHz).",
            "sample_rate_hz": SR, "channels": 1, "format": "mp3",
            "duration_s": 10.0, "source": "practice_talk.wav",
        })  # fmt: skip
    except Exception as exc:  # noqa: BLE001 - optional: any encoder failure skips it
        print(f"skipped practice_short.mp3 ({exc})")

    for name, container, codec, rate in (
        ("clean_sentence.m4a", "ipod", "aac", SR),
        ("clean_sentence.ogg", "ogg", "libopus", 48000),
    ):
        try:
            data = encode(clean, container=container, codec=codec, rate=rate)
        except Exception as exc:  # noqa: BLE001 - optional: any encoder failure skips it
            print(f"skipped {name} ({exc})")
            continue
        w.write(name, data, {
            "description": f"clean_sentence as {codec} in {container} at {rate} Hz mono.",
            "sample_rate_hz": rate, "channels": 1, "format": f"{container} {codec}",
            "duration_s": sec(clean.size), "source": "clean_sentence.wav",
        })  # fmt: skip

    w.write("empty.wav", b"", {"description": "0 bytes.", "bad": True})
    w.write("not_audio.wav", b"This is a text file, not audio. coach should say so.\n", {
        "description": "A text file named .wav.", "bad": True,
    })  # fmt: skip
    cut = int(len(clean_wav) * 0.3)
    w.write("truncated.wav", clean_wav[:cut], {
        "description": "The first 30 % of clean_sentence.wav's bytes: the header is intact and "
                       "still claims the full length, the data stops early.",
        "bad": True, "sample_rate_hz": SR, "channels": 1,
        "header_samples": clean.size, "samples": (cut - 44) // 2,
        "duration_s": sec((cut - 44) // 2), "source": "clean_sentence.wav",
    })  # fmt: skip
    w.write("zero_length.wav", wav_bytes(np.zeros(0, np.int16)), {
        "description": "A valid 44-byte wav header with 0 samples.", "bad": True,
        "sample_rate_hz": SR, "channels": 1, "samples": 0, "duration_s": 0.0,
    })  # fmt: skip

    answers = []
    for i, answer in enumerate(ANSWERS, start=1):
        samples, entry = build_answer(voice, answer)
        entry["voice"] = voice.name
        name = f"answers/answer_{i:02d}.wav"
        w.write(name, wav_bytes(to_int16(samples)), entry)
        answers.append(name)

    interview_answers = []
    for i in range(len(INTERVIEW_ANSWERS)):
        samples, entry = build_interview_answer(voice, i)
        entry["voice"] = voice.name
        name = f"interview/answer_{i + 1:02d}.wav"
        w.write(name, wav_bytes(to_int16(samples)), entry)
        interview_answers.append(name)

    manifest = {
        "generator": "scripts/make_fixtures.py",
        "voice": voice.name,
        "sample_rate_hz": SR,
        "trim_db": TRIM_DB,
        "gap_s": GAP_S,
        "answer_gap_s": ANSWER_GAP_S,
        "answers": answers,
        "interview_answers": interview_answers,
        "note": (
            "Times are exact sample positions in seconds: each phrase was trimmed to its "
            f"first..last 10 ms frame above {TRIM_DB:.0f} dBFS before it was placed; "
            "silences are digital zeros."
        ),
        "fixtures": w.entries,
    }
    path = args.out / "manifest.json"
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    total = sum(e["bytes"] for e in w.entries.values()) + path.stat().st_size
    print(f"wrote {_show(path)}  ({len(w.entries)} fixtures, {total} bytes in all)")


if __name__ == "__main__":
    main()
