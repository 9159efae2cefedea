"""End-of-utterance detection: scripted speech flags through the Endpointer, then webrtcvad
on the practice talk compared with its manifest."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import fixture_path, manifest_entry

from coach import SAMPLE_RATE
from coach.endpoint import (
    Endpointer,
    EndpointOptions,
    EndpointState,
    Utterance,
    utterances,
)
from coach.errors import OptionsError
from coach.stream import AudioFrame, array_frames, file_frames
from coach.vad import VadOptions

FRAME_S = 0.03
"""Frame length of the scripted streams, in seconds (30 ms, the VAD default)."""
FRAME_N = 480
"""Samples per 30 ms frame at 16 kHz."""
VOICE = 1000
"""Sample value of a scripted voiced frame (silent frames are zeros)."""

OPTIONS = EndpointOptions(
    start_s=0.09,
    hangover_s=0.8,
    pre_roll_s=0.3,
    tail_s=0.2,
    min_utterance_s=0.25,
    max_utterance_s=30.0,
)
"""Fixed options, so retuning the defaults does not move these tests."""

EDGE_S = 0.15
"""How far (s) an utterance edge may sit from the manifest's phrase edge (webrtcvad decides
per 30 ms frame and holds on for a few frames after speech ends)."""


def script(*runs: tuple[bool, float]) -> list[tuple[AudioFrame, bool]]:
    """Frames with VAD decisions from ``(is_speech, seconds)`` runs of whole 30 ms frames."""
    out: list[tuple[AudioFrame, bool]] = []
    k = 0
    for voiced, seconds in runs:
        n = round(seconds / FRAME_S)
        assert n * FRAME_S == pytest.approx(seconds), f"{seconds} s is not whole frames"
        for _ in range(n):
            samples = np.full(FRAME_N, VOICE if voiced else 0, np.int16)
            out.append((AudioFrame(samples, k * FRAME_N / SAMPLE_RATE), voiced))
            k += 1
    return out


def run(
    frames: list[tuple[AudioFrame, bool]], options: EndpointOptions = OPTIONS
) -> list[Utterance]:
    endpointer = Endpointer(options, VadOptions(frame_ms=30))
    out: list[Utterance] = []
    for frame, voiced in frames:
        out.extend(endpointer.push(frame, voiced))
    out.extend(endpointer.flush())
    assert endpointer.state is EndpointState.QUIET
    return out


def bounds(utts: list[Utterance]) -> list[tuple[float, float]]:
    return [(round(u.start_s, 6), round(u.end_s, 6)) for u in utts]


def check_samples(u: Utterance) -> None:
    """The utterance's audio sits where its times say (voiced frames hold VOICE)."""
    assert u.samples.dtype == np.int16
    assert u.samples_start_s <= u.start_s + 1e-9
    start = round((u.start_s - u.samples_start_s) * SAMPLE_RATE)
    assert u.samples[start] == VOICE
    assert u.samples_end_s <= u.decided_s + 1e-9


# --- scripted flags -----------------------------------------------------------------------


def test_short_pause_does_not_split() -> None:
    # 0.51 s pause (17 frames) < 0.8 s hangover
    utts = run(script((False, 0.6), (True, 1.2), (False, 0.51), (True, 1.2), (False, 1.5)))
    assert bounds(utts) == [(0.6, 3.51)]
    (u,) = utts
    assert not u.forced and u.speech_end_s == pytest.approx(3.51)
    # the end is decided once 0.8 s of silence has passed, at a frame boundary: 0.81 s
    assert u.decided_s == pytest.approx(3.51 + 0.81)
    check_samples(u)


def test_long_pause_splits() -> None:
    # 0.99 s pause (33 frames) > 0.8 s hangover
    utts = run(script((False, 0.6), (True, 1.2), (False, 0.99), (True, 1.2), (False, 1.5)))
    assert bounds(utts) == [(0.6, 1.8), (2.79, 3.99)]
    first, second = utts
    assert first.decided_s == pytest.approx(1.8 + 0.81)
    assert second.decided_s == pytest.approx(3.99 + 0.81)
    # pre-roll 0.3 s before the start, tail 0.2 s after the end of speech
    assert first.samples_start_s == pytest.approx(0.3)
    assert first.samples.size == round((1.8 + 0.2 - 0.3) * SAMPLE_RATE)
    assert second.samples_start_s == pytest.approx(2.49)
    assert second.samples_end_s == pytest.approx(4.19)
    for u in utts:
        check_samples(u)


def test_hangover_is_the_threshold() -> None:
    # the same 0.99 s pause stays inside one utterance with a 1.0 s hangover
    frames = script((False, 0.6), (True, 1.2), (False, 0.99), (True, 1.2), (False, 1.5))
    utts = run(frames, EndpointOptions(hangover_s=1.0))
    assert bounds(utts) == [(0.6, 3.99)]


def test_pre_roll_is_included() -> None:
    (u,) = run(script((False, 1.5), (True, 0.6), (False, 0.99)))
    assert (u.start_s, u.samples_start_s) == (pytest.approx(1.5), pytest.approx(1.2))
    pre = round(0.3 * SAMPLE_RATE)
    assert (
        not u.samples[:pre].any()
        and (u.samples[pre : pre + round(0.6 * SAMPLE_RATE)] == VOICE).all()
    )
    assert not u.samples[pre + round(0.6 * SAMPLE_RATE) :].any()  # the 0.2 s tail
    assert u.samples.size == round((0.3 + 0.6 + 0.2) * SAMPLE_RATE)

    # near the stream's start there is only as much pre-roll as there was audio
    (u,) = run(script((False, 0.12), (True, 0.6), (False, 0.99)))
    assert u.samples_start_s == 0.0 and u.start_s == pytest.approx(0.12)

    (u,) = run(script((False, 1.5), (True, 0.6), (False, 0.99)), EndpointOptions(pre_roll_s=0))
    assert u.samples_start_s == pytest.approx(1.5)


def test_blips_are_dropped() -> None:
    # 0.06 s: never opens (start_s is 0.09 s); 0.12 s: opens but is under min_utterance_s
    assert run(script((False, 0.51), (True, 0.06), (False, 0.99))) == []
    assert run(script((False, 0.51), (True, 0.12), (False, 0.99))) == []
    # a blip does not disturb the utterance after it, nor its pre-roll
    utts = run(script((False, 0.51), (True, 0.12), (False, 1.2), (True, 0.6), (False, 0.99)))
    assert bounds(utts) == [(1.83, 2.43)]
    assert utts[0].samples_start_s == pytest.approx(1.53)
    check_samples(utts[0])


def test_states() -> None:
    endpointer = Endpointer(OPTIONS)
    states = []
    for frame, voiced in script((False, 0.06), (True, 0.12), (False, 0.06), (True, 0.03)):
        endpointer.push(frame, voiced)
        states.append(endpointer.state)
    q, st, sp, so = (
        EndpointState.QUIET,
        EndpointState.STARTING,
        EndpointState.SPEAKING,
        EndpointState.STOPPING,
    )
    assert states == [q, q, st, st, sp, sp, so, so, sp]

    # a voiced run broken before start_s goes back to QUIET
    endpointer = Endpointer(OPTIONS)
    for frame, voiced in script((True, 0.06), (False, 0.03)):
        endpointer.push(frame, voiced)
    assert endpointer.state is q


def test_flush_closes_an_open_utterance() -> None:
    endpointer = Endpointer(OPTIONS)
    frames = script((False, 0.3), (True, 1.2))
    for frame, voiced in frames:
        assert endpointer.push(frame, voiced) == []
    assert endpointer.state is EndpointState.SPEAKING
    (u,) = endpointer.flush()
    assert (u.start_s, u.end_s, u.decided_s) == (
        pytest.approx(0.3),
        pytest.approx(1.5),
        pytest.approx(1.5),
    )
    assert endpointer.state is EndpointState.QUIET and endpointer.buffered_s == 0
    assert endpointer.flush() == []

    # in STOPPING, the tail is what there is
    (u,) = run(script((False, 0.3), (True, 1.2), (False, 0.12)))
    assert (u.end_s, u.decided_s) == (pytest.approx(1.5), pytest.approx(1.62))
    assert u.samples_end_s == pytest.approx(1.62)


def test_max_length_cuts_at_the_quiet_frame() -> None:
    options = EndpointOptions(max_utterance_s=10.0)
    frames = script(
        (True, 3.0),
        (False, 0.03),  # before the second half: not a cut candidate
        (True, 2.97),
        (False, 0.03),  # 6.00-6.03: the one quiet frame in the second half
        (True, 5.97),
        (False, 0.99),
    )
    # make the early pause quieter than the late one: still the late one is cut at
    frames[100] = (AudioFrame(np.zeros(FRAME_N, np.int16), frames[100][0].start_s), False)
    frames[200] = (AudioFrame(np.full(FRAME_N, 5, np.int16), frames[200][0].start_s), False)
    utts = run(frames, options)
    assert bounds(utts) == [(0.0, 6.03), (6.03, 12.0)]
    first, second = utts
    assert first.forced and not second.forced
    assert first.speech_end_s == pytest.approx(6.0)
    assert first.decided_s == pytest.approx(10.02)  # first frame ending at or after 10 s
    assert first.samples_start_s == 0.0 and first.samples_end_s == pytest.approx(6.03)
    assert second.samples_start_s == pytest.approx(6.03)  # no overlap with the first
    assert second.samples[0] == VOICE


def test_max_length_cuts_at_the_limit_without_a_pause() -> None:
    options = EndpointOptions(max_utterance_s=10.0)
    utts = run(script((False, 0.3), (True, 25.2), (False, 0.99)), options)
    assert bounds(utts) == [(0.3, 10.32), (10.32, 20.34), (20.34, 25.5)]
    assert [u.forced for u in utts] == [True, True, False]
    # consecutive pieces join without a gap or an overlap
    assert utts[0].samples_end_s == pytest.approx(utts[1].samples_start_s)
    assert utts[1].samples_end_s == pytest.approx(utts[2].samples_start_s)
    total = sum(u.samples.size for u in utts)
    assert total == round((0.3 + 25.2 + 0.2) * SAMPLE_RATE)


def test_memory_stays_bounded() -> None:
    options = EndpointOptions(max_utterance_s=5.0)
    endpointer = Endpointer(options)
    most = 0.0
    for frame, voiced in script((False, 60.0), (True, 60.0), (False, 60.0)):
        endpointer.push(frame, voiced)
        most = max(most, endpointer.buffered_s)
    assert most <= 5.0 + 0.3 + FRAME_S + 1e-9
    assert endpointer.buffered_s <= 0.3 + 1e-9


def test_options_validation() -> None:
    for bad in (
        {"hangover_s": 0},
        {"start_s": -0.1},
        {"pre_roll_s": float("nan")},
        {"tail_s": 1.0, "hangover_s": 0.5},
        {"max_utterance_s": 0.2},
        {"min_utterance_s": "0.25"},
    ):
        with pytest.raises(OptionsError):
            EndpointOptions(**bad)


def test_frame_length_must_match_the_vad() -> None:
    endpointer = Endpointer(OPTIONS, VadOptions(frame_ms=20))
    frame, _ = script((True, 0.03))[0]
    with pytest.raises(OptionsError, match="frame_ms"):
        endpointer.push(frame, True)
    with pytest.raises(OptionsError, match="frame_ms"):
        list(
            utterances(
                array_frames(np.zeros(960, np.int16), frame_ms=30),
                vad_options=VadOptions(frame_ms=20),
            )
        )


def test_utterances_flushes_before_passing_a_source_error_on() -> None:
    talk = file_frames(fixture_path("clean_sentence.wav"), realtime=False)

    class Unplugged(Exception):
        pass

    def source() -> Any:
        for frame in talk:
            yield frame
            if frame.end_s >= 2.0:  # mid-sentence
                raise Unplugged

    got: list[Utterance] = []
    with pytest.raises(Unplugged):
        for u in utterances(source(), options=OPTIONS):
            got.append(u)
    assert len(got) == 1
    assert got[0].start_s == pytest.approx(0.5, abs=EDGE_S)
    assert got[0].decided_s == pytest.approx(2.01)


# --- webrtcvad on the practice talk -------------------------------------------------------


def expected_utterances(entry: dict[str, Any], hangover_s: float) -> list[tuple[float, float]]:
    """The manifest's phrases, joined where the silence between them is under the hangover."""
    groups: list[list[float]] = []
    for seg in entry["segments"]:
        if seg["kind"] == "silence":
            continue
        if groups and seg["start_s"] - groups[-1][1] < hangover_s:
            groups[-1][1] = seg["end_s"]
        else:
            groups.append([seg["start_s"], seg["end_s"]])
    return [(a, b) for a, b in groups]


@pytest.mark.parametrize(("hangover_s", "count"), [(0.8, 5), (1.7, 4)])
def test_practice_talk_utterances_match_manifest(hangover_s: float, count: int) -> None:
    entry = manifest_entry("practice_talk.wav")
    gaps = [s["duration_s"] for s in entry["segments"] if s["kind"] == "silence"]
    assert sorted(set(gaps)) == [0.2, 0.4, 0.5, 1.6, 2.0]  # what the expectations rest on
    expected = expected_utterances(entry, hangover_s)
    assert len(expected) == count  # 0.8 s: the three 2.0 s pauses and the 1.6 s one split

    options = EndpointOptions(hangover_s=hangover_s)
    frames = file_frames(fixture_path("practice_talk.wav"), realtime=False)
    got = list(utterances(frames, options=options, vad_options=VadOptions(aggressiveness=2)))

    assert len(got) == len(expected), [(u.start_s, u.end_s) for u in got]
    for u, (start, end) in zip(got, expected, strict=True):
        assert u.start_s == pytest.approx(start, abs=EDGE_S)
        assert u.end_s == pytest.approx(end, abs=EDGE_S)
        assert not u.forced
        assert u.samples.size == round((u.samples_end_s - u.samples_start_s) * SAMPLE_RATE)
        assert u.samples_start_s == pytest.approx(max(0.0, u.start_s - options.pre_roll_s))
        # decided a hangover after the end of speech, or at the end of the recording
        assert u.decided_s == pytest.approx(
            min(u.speech_end_s + hangover_s, entry["duration_s"]), abs=FRAME_S + 1e-6
        )
