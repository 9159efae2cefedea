"""The real audio path with no sound card: coach's PortAudio code against a PulseAudio server.

A private PulseAudio daemon (its own socket, runtime folder and HOME in a temporary folder,
so a desktop's sound server is left alone) gets two null sinks. ``coach_mic`` stands in for
a microphone: what ``paplay`` plays into it comes out of its monitor, the default source.
``coach_speaker`` stands in for a speaker: it is the default sink, and ``parecord`` records
its monitor. PortAudio reaches the server through ALSA's pulse plugin, as the device
"pulse", exactly as on a desktop Linux machine; coach runs as a separate process with
``PULSE_SERVER`` pointing at the daemon.

Skipped, saying what is missing, when pulseaudio, its utilities, PortAudio, sounddevice or
the ALSA pulse plugin are not installed (``make system`` installs them), or when the daemon
cannot start. The whole rehearsal also needs the default models (marked ``models``).
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from conftest import ROOT, fixture_path, manifest_entry

pytestmark = pytest.mark.devices

RATE = 16000
"""Rate the speaker's monitor is recorded at, Hz."""
LOUD_DB = -40.0
"""A 10 ms frame above this RMS level (dBFS) counts as sound."""
TOOLS = ("pulseaudio", "pactl", "paplay", "parecord")

_DAEMON_CONFIG = """\
load-module module-native-protocol-unix socket={socket} auth-anonymous=1
load-module module-null-sink sink_name=coach_mic rate=16000 channels=1 norewinds=1
load-module module-null-sink sink_name=coach_speaker rate=16000 channels=1 norewinds=1
set-default-source coach_mic.monitor
set-default-sink coach_speaker
"""


@dataclass
class Pulse:
    """A running private PulseAudio daemon and how to reach it."""

    env: dict[str, str]
    """The environment of a client: this process's, with PULSE_SERVER set."""
    folder: Path
    """The daemon's temporary folder."""

    def run(self, *argv: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
        """Run a client command to completion."""
        return subprocess.run(
            argv, env=self.env, capture_output=True, text=True, timeout=timeout, check=False
        )

    def play_into_mic(self, path: Path) -> None:
        """Play a recording into the microphone's null sink, in real time (returns after)."""
        done = self.run("paplay", "--device=coach_mic", str(path), timeout=300)
        assert done.returncode == 0, done.stderr

    def coach(self, *argv: str) -> list[str]:
        """The command line of ``coach argv...`` in this Python."""
        return [sys.executable, "-m", "coach", *argv]


def _why_not(pulse_env: dict[str, str]) -> str:
    """Why PortAudio cannot reach the daemon as "pulse" ('' when it can)."""
    probe = (
        "import json, sounddevice as sd; "
        "print(json.dumps([[d['name'], d['max_input_channels'], d['max_output_channels']] "
        "for d in sd.query_devices()]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=pulse_env, capture_output=True, text=True, timeout=60
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return f"sounddevice/PortAudio cannot list devices ({last}): `make system` and `make venv`"
    names = [name for name, _i, _o in json.loads(done.stdout)]
    if "pulse" not in names:
        return (
            f"PortAudio does not see the ALSA 'pulse' device (it sees {names}): install "
            "libasound2-plugins (`make system`)"
        )
    return ""


@pytest.fixture(scope="module")
def pulse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pulse]:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(
            f"{', '.join(missing)} not installed: `make system` installs pulseaudio, "
            "pulseaudio-utils, libportaudio2 and libasound2-plugins"
        )
    folder = tmp_path_factory.mktemp("pulse")
    (folder / "run").mkdir(mode=0o700)
    (folder / "home").mkdir()
    socket = folder / "native"
    config = folder / "default.pa"
    config.write_text(_DAEMON_CONFIG.format(socket=socket))
    log = (folder / "daemon.log").open("w")
    daemon_env = {
        **os.environ,
        "XDG_RUNTIME_DIR": str(folder / "run"),
        "HOME": str(folder / "home"),
    }
    daemon_env.pop("PULSE_SERVER", None)
    # -n: no default configuration; as root it runs in user mode too (with a warning)
    daemon = subprocess.Popen(
        ["pulseaudio", "-n", "-F", str(config), "--daemonize=no", "--exit-idle-time=-1",
         "--use-pid-file=no", "--disable-shm=yes", "--log-target=stderr"],
        env=daemon_env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    env = {**os.environ, "PULSE_SERVER": f"unix:{socket}"}
    p = Pulse(env, folder)
    try:
        deadline = time.monotonic() + 60
        while True:
            if daemon.poll() is not None:
                log.flush()
                tail = (folder / "daemon.log").read_text().strip().splitlines()[-3:]
                pytest.skip(f"pulseaudio would not start: {' | '.join(tail)}")
            if p.run("pactl", "info").returncode == 0:
                break
            if time.monotonic() > deadline:
                pytest.skip("pulseaudio did not answer within 60 s")
            time.sleep(0.2)
        why = _why_not(env)
        if why:
            pytest.skip(why)
        yield p
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
        log.close()


class SpeakerRecording:
    """``parecord`` on the speaker's monitor, 16 kHz mono s16 raw, while in a ``with``."""

    def __init__(self, pulse: Pulse, path: Path) -> None:
        self.pulse = pulse
        self.path = path
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> SpeakerRecording:
        self.proc = subprocess.Popen(
            ["parecord", "--raw", "--device=coach_speaker.monitor", "--format=s16le",
             f"--rate={RATE}", "--channels=1", str(self.path)],
            env=self.pulse.env, stderr=subprocess.PIPE,
        )  # fmt: skip
        deadline = time.monotonic() + 30  # recording once its stream shows in the server
        while "parecord" not in self.pulse.run("pactl", "list", "source-outputs").stdout.lower():
            assert self.proc.poll() is None, self.proc.stderr.read() if self.proc.stderr else ""
            assert time.monotonic() < deadline, "parecord never started recording"
            time.sleep(0.1)
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()

    def samples(self) -> np.ndarray:
        """What the speaker played, float in [-1, 1], 16 kHz mono."""
        return np.fromfile(self.path, dtype="<i2").astype(np.float32) / 32768.0


def loud_s(x: np.ndarray, rate: int) -> float:
    """Seconds of 10 ms frames above :data:`LOUD_DB`."""
    hop = rate // 100
    n = x.size // hop
    if n == 0:
        return 0.0
    rms = np.sqrt((x[: n * hop].reshape(n, hop).astype(np.float64) ** 2).mean(axis=1))
    return float((20 * np.log10(np.maximum(rms, 1e-9)) > LOUD_DB).sum() * 0.01)


def sound_runs(x: np.ndarray, rate: int, *, min_gap_s: float = 0.05) -> list[tuple[float, float]]:
    """(start s, end s) of the stretches of sound (10 ms frames above :data:`LOUD_DB`),
    joined across gaps shorter than ``min_gap_s``."""
    hop = rate // 100
    n = x.size // hop
    rms = np.sqrt((x[: n * hop].reshape(n, hop).astype(np.float64) ** 2).mean(axis=1))
    loud = np.flatnonzero(20 * np.log10(np.maximum(rms, 1e-9)) > LOUD_DB)
    runs: list[list[float]] = []
    for k in loud:
        t = k * 0.01
        if runs and t - runs[-1][1] < min_gap_s + 1e-9:
            runs[-1][1] = t + 0.01
        else:
            runs.append([t, t + 0.01])
    return [(round(a, 2), round(b, 2)) for a, b in runs]


def _pulse_index(pulse: Pulse) -> int:
    """PortAudio's index of the "pulse" device, as `coach devices` lists it."""
    probe = (
        "from coach.stream import list_devices; "
        "print([d.index for d in list_devices() if d.name == 'pulse'][0])"
    )
    done = subprocess.run([sys.executable, "-c", probe], env=pulse.env, capture_output=True,
                          text=True, timeout=60, check=True)  # fmt: skip
    return int(done.stdout)


# --- no models ------------------------------------------------------------------------------


def test_coach_devices_lists_the_pulse_device(pulse: Pulse) -> None:
    done = pulse.run(*pulse.coach("devices"))
    assert done.returncode == 0, done.stderr
    # a row "index | pulse | inputs | outputs | rate | default", whatever the box characters
    rows = [re.findall(r"[\w.,]+", line) for line in done.stdout.splitlines()]
    pulse_rows = [cells for cells in rows if len(cells) >= 5 and cells[1] == "pulse"]
    assert pulse_rows, done.stdout
    index, _name, inputs, outputs = pulse_rows[0][:4]
    assert index.isdigit() and int(inputs) > 0 and int(outputs) > 0, done.stdout


_LOOPBACK = r"""
import json, subprocess, sys, time
import numpy as np
from coach.sinks import SpeakerSink
from coach.stream import Microphone
from coach.tts import SpeechChunk

tone_file, mic_device, speaker_device = sys.argv[1], sys.argv[2], sys.argv[3]
out = {}
# the microphone: frames while a 2 s tone is played into it, and 1 s after
with Microphone(mic_device, timeout_s=10.0) as mic:
    player = subprocess.Popen(["paplay", "--device=coach_mic", tone_file])
    frames, until = [], None
    for frame in mic.frames():
        frames.append(frame)
        if until is None and player.poll() is not None:
            until = frame.end_s + 1.0
        if (until is not None and frame.end_s >= until) or frame.end_s > 120:
            break
    out["mic_name"] = mic.device_name
x = np.concatenate([f.samples for f in frames]).astype(np.float32) / 32768
out["starts"] = [f.start_s for f in frames[:3]]
out["frame_sizes"] = sorted({f.samples.size for f in frames})
out["mic_rms"] = [float(np.sqrt((x[i:i + 1600] ** 2).mean())) for i in range(0, x.size, 1600)]
spectrum = np.abs(np.fft.rfft(x))
out["mic_peak_hz"] = float(np.fft.rfftfreq(x.size, 1 / 16000)[spectrum.argmax()])
# the speaker: two 0.8 s chunks of a 440 Hz tone at Piper's rate, the second made while
# the first plays (0.4 s, as Piper synthesises the next sentence), then a quiet second (as
# while an answer is heard) and a third chunk
rate = 22050
t = np.arange(int(0.8 * rate)) / rate
tone = (0.3 * np.sin(2 * np.pi * 440 * t) * 32767).astype(np.int16)
sink = SpeakerSink(speaker_device)
sink.play(SpeechChunk("One.", tone, rate, 0.0))
time.sleep(0.4)
sink.play(SpeechChunk("Two.", tone, rate, 0.8))
sink.drain()
time.sleep(1.0)
sink.play(SpeechChunk("Three.", tone, rate, 0.0))
sink.close()
out["speaker_name"] = sink.device_name
print(json.dumps(out))
"""


def test_microphone_and_speaker_through_pulseaudio(pulse: Pulse, tmp_path: Path) -> None:
    """coach.stream.Microphone records what is played into the mic sink, and
    coach.sinks.SpeakerSink plays into the speaker sink, with no model."""
    tone = fixture_path("tone_220hz.wav")
    index = _pulse_index(pulse)
    with SpeakerRecording(pulse, tmp_path / "speaker.raw") as rec:
        done = pulse.run(sys.executable, "-c", _LOOPBACK, str(tone), "pulse", str(index),
                         timeout=300)  # fmt: skip
        assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["mic_name"] == "pulse"
    assert out["starts"] == [0.0, 0.03, 0.06] and out["frame_sizes"] == [480]
    # the 2 s tone arrived whole: about 2 s of sound, at 220 Hz
    loud = sum(0.1 for r in out["mic_rms"] if r > 0.01)
    assert 1.7 <= loud <= 2.4, out["mic_rms"]
    assert out["mic_peak_hz"] == pytest.approx(220, abs=3)
    # the speaker: 2.4 s of 440 Hz, the first two chunks in one piece (the second was
    # queued while the first played), the third after the quiet second
    x = rec.samples()
    assert loud_s(x, RATE) == pytest.approx(2.4, abs=0.15), sound_runs(x, RATE)
    runs = sound_runs(x, RATE, min_gap_s=0.1)
    assert len(runs) == 2, runs
    assert runs[0][1] - runs[0][0] == pytest.approx(1.6, abs=0.1)
    assert runs[1][1] - runs[1][0] == pytest.approx(0.8, abs=0.1)
    spectrum = np.abs(np.fft.rfft(x))
    assert np.fft.rfftfreq(x.size, 1 / RATE)[spectrum.argmax()] == pytest.approx(440, abs=3)


# --- the whole rehearsal --------------------------------------------------------------------


class Lines:
    """A child process's stdout, line by line, read in a thread (waits never block on it)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        assert proc.stdout is not None
        self._thread = threading.Thread(target=self._read, args=(proc.stdout,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:  # type: ignore[no-untyped-def]
        for line in stream:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, prefix: str, timeout_s: float) -> None:
        """Block until a line starting with ``prefix`` is printed (fails at EOF or timeout)."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"no {prefix!r} within {timeout_s:g} s; printed: {self.seen}")
            if line is None:
                pytest.fail(f"coach ended before {prefix!r}; printed: {self.seen}")
            self.seen.append(line)
            if line.startswith(prefix):
                return

    def rest(self) -> list[str]:
        """Every line printed (call once the process has ended)."""
        self._thread.join(timeout=60)
        while not self._queue.empty():
            line = self._queue.get_nowait()
            if line is not None:
                self.seen.append(line)
        return self.seen


@pytest.mark.models
def test_rehearse_through_a_microphone_and_a_speaker(pulse: Pulse, tmp_path: Path) -> None:
    """`coach rehearse --device pulse --output-device N`: the practice talk is played into
    the mic sink in real time, the question comes out of the speaker sink, the answer goes back
    into the mic once the question has been heard; the timeouts are bounds for a stuck run
    on a busy machine, not speeds."""
    talk_path = fixture_path("practice_talk.wav")  # the shipped demo talk, which has questions
    entry = manifest_entry("practice_talk.wav")
    talk_s, talk_words = entry["duration_s"], entry["expected"]["lexical_words"]
    answer = fixture_path("answers/answer_01.wav")
    save = tmp_path / "session"
    index = _pulse_index(pulse)
    env = {**pulse.env, "COACH_DATA_DIR": str(tmp_path / "data")}
    argv = pulse.coach(
        "rehearse", "--device", "pulse", "--output-device", str(index), "--questions", "1",
        "--no-follow-ups", "--end-silence", "3", "--save", str(save), "--no-history",
        # a question is always asked (grounded wording asks none when nothing fits what
        # the recogniser heard): this test is about the audio path
        "--question-wording", "llm",
    )  # fmt: skip
    stderr = (tmp_path / "stderr.txt").open("w+")
    with SpeakerRecording(pulse, tmp_path / "speaker.raw") as rec:
        proc = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr,
                                text=True)  # fmt: skip
        try:
            lines = Lines(proc)
            lines.wait_for("talk: listening", 300)
            pulse.play_into_mic(talk_path)
            lines.wait_for("answer 1: listening", 900)  # the question has been heard
            pulse.play_into_mic(answer)
            code = proc.wait(timeout=600)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        printed = "\n".join(lines.rest())
    stderr.seek(0)
    errors = stderr.read()
    stderr.close()
    assert code == 0, f"{printed}\n{errors}"

    report = json.loads((save / "report.json").read_text())
    talk = report["talk"]
    # the talk came through the microphone whole: its words, and its length plus the
    # 3 s of silence that ended it (and the moment between listening and playing)
    assert abs(talk["word_count"] - talk_words) <= 0.1 * talk_words, talk["transcript"]
    heard = talk["transcript"].lower()
    assert "code review" in heard and "firefighting" in heard
    assert talk_s + 2.0 <= talk["duration_s"] <= talk_s + 3.0 + 30.0
    # one question, and the answer came through the microphone after it
    (turn,) = report["qa"]
    assert turn["question"]["text"].endswith("?")
    said = turn["answer_transcript"].lower()
    assert "missing tests" in said and "ci history" in said.replace(",", ""), said
    assert turn["answer_delivery"]["duration_s"] >= sf.info(str(answer)).duration - 0.6
    # the speaker played what coach said: as much sound as the session's copy of it
    # (audience.wav: the acknowledgement and the question), and only after the talk
    spoken, rate = sf.read(str(save / "audience.wav"), dtype="float32")
    expected = loud_s(spoken, rate)
    assert expected > 2.0
    x = rec.samples()
    assert loud_s(x, RATE) == pytest.approx(expected, rel=0.15)
    first = np.flatnonzero(np.abs(x) > 0.01)[0] / RATE
    assert first > talk_s
