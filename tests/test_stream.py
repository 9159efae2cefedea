"""Frame sources: arrays, the virtual mic over a file, and the microphone with a fake
sounddevice (no PortAudio, no device, no real sleeping)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from conftest import fixture_path, manifest_entry

from coach import SAMPLE_RATE, audio, stream
from coach.errors import AudioError, OptionsError
from coach.stream import AudioFrame, DeviceError, Microphone, array_frames, file_frames

FRAME_N = 480
"""One 30 ms frame at 16 kHz, in samples."""


# --- AudioFrame and array_frames ----------------------------------------------------------


def test_audio_frame_times_and_float32() -> None:
    frame = AudioFrame(np.array([0, 16384, -32768, 32767], np.int16), start_s=1.5)
    assert frame.duration_s == 4 / SAMPLE_RATE
    assert frame.end_s == 1.5 + 4 / SAMPLE_RATE
    x = frame.float32()
    assert x.dtype == np.float32
    assert x.tolist() == [0.0, 0.5, -1.0, 32767 / 32768]


def test_array_frames_exact_times_and_padding() -> None:
    samples = np.arange(1000, dtype=np.int16) + 1  # 2 full frames + 40 samples
    frames = list(array_frames(samples, frame_ms=30, start_s=2.0))
    assert [f.start_s for f in frames] == [2.0, 2.0 + 480 / 16000, 2.0 + 960 / 16000]
    assert all(f.samples.dtype == np.int16 and f.samples.size == FRAME_N for f in frames)
    assert np.array_equal(frames[0].samples, samples[:480])
    assert np.array_equal(frames[2].samples[:40], samples[960:])
    assert not frames[2].samples[40:].any()  # zero-padded
    assert frames[-1].end_s == pytest.approx(2.0 + 3 * 0.03, abs=1e-12)


def test_array_frames_float_input_and_other_lengths() -> None:
    x = np.full(320, 0.5, np.float32)
    frames = list(array_frames(x, frame_ms=10))
    assert [f.start_s for f in frames] == [0.0, 0.01]
    assert frames[0].samples.tolist() == [audio.to_int16(np.float32([0.5]))[0]] * 160
    assert list(array_frames(np.zeros(0, np.float32))) == []
    exact = list(array_frames(np.zeros(960, np.int16)))
    assert len(exact) == 2


def test_array_frames_bad_input() -> None:
    with pytest.raises(OptionsError, match="frame_ms"):
        list(array_frames(np.zeros(10, np.int16), frame_ms=0))
    with pytest.raises(OptionsError, match="mono"):
        list(array_frames(np.zeros((10, 2), np.float32)))
    with pytest.raises(OptionsError, match="int16"):
        list(array_frames(np.zeros(10, np.int64)))


# --- file_frames: the virtual mic ---------------------------------------------------------


class FakeClock:
    """A clock that only moves when slept on (or when told to), recording every sleep."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert seconds > 0
        self.sleeps.append(seconds)
        self.now += seconds


def _check_frame_grid(frames: list[AudioFrame]) -> None:
    for k, f in enumerate(frames):
        assert f.samples.dtype == np.int16 and f.samples.size == FRAME_N
        assert f.start_s == k * FRAME_N / SAMPLE_RATE
        assert f.start_s == pytest.approx(k * 0.03, abs=1e-9)


def test_file_frames_fast_matches_the_decoded_file() -> None:
    path = fixture_path("clean_sentence.wav")
    entry = manifest_entry("clean_sentence.wav")
    frames = list(file_frames(path, realtime=False))
    _check_frame_grid(frames)
    assert len(frames) == -(-entry["samples"] // FRAME_N)
    joined = np.concatenate([f.samples for f in frames])
    expected = audio.to_int16(audio.load(path))
    assert np.array_equal(joined[: expected.size], expected)
    assert not joined[expected.size :].any()


def test_file_frames_fast_never_sleeps(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_sleep(seconds: float) -> None:
        raise AssertionError("slept in fast mode")

    frames = list(file_frames(fixture_path("clean_sentence.wav"), realtime=False, sleep=no_sleep))
    assert frames


def test_file_frames_realtime_paces_by_the_injected_clock() -> None:
    path = fixture_path("clean_sentence.wav")
    duration = manifest_entry("clean_sentence.wav")["duration_s"]
    clock = FakeClock()
    released: list[float] = []
    frames = []
    for f in file_frames(path, clock=clock, sleep=clock.sleep):
        released.append(clock.now - 100.0)
        frames.append(f)
    _check_frame_grid(frames)
    # like a microphone, frame k is out once its last sample would have been captured
    for f, t in zip(frames, released, strict=True):
        assert t == pytest.approx(f.end_s, abs=1e-9)
    assert sum(clock.sleeps) == pytest.approx(len(frames) * 0.03, abs=1e-9)
    assert sum(clock.sleeps) == pytest.approx(duration, abs=0.03)


def test_file_frames_speed_and_slow_consumer() -> None:
    path = fixture_path("clean_sentence.wav")
    clock = FakeClock()
    n = sum(1 for _ in file_frames(path, speed=2.0, clock=clock, sleep=clock.sleep))
    assert sum(clock.sleeps) == pytest.approx(n * 0.03 / 2, abs=1e-9)

    # a consumer that takes 60 ms per frame is never slept for: it is always behind
    clock = FakeClock()
    frames = []
    for f in file_frames(path, clock=clock, sleep=clock.sleep):
        frames.append(f)
        clock.now += 0.06
    assert clock.sleeps == [pytest.approx(0.03)]  # only the first frame waits
    _check_frame_grid(frames)  # times still come from samples, not the clock


def test_file_frames_decodes_other_formats_to_the_same_grid() -> None:
    frames = list(file_frames(fixture_path("stereo_44k.flac"), realtime=False, frame_ms=20))
    assert all(f.samples.size == 320 for f in frames)
    assert frames[5].start_s == pytest.approx(0.1, abs=1e-12)
    assert len(frames) * 0.02 == pytest.approx(
        manifest_entry("stereo_44k.flac")["duration_s"], abs=0.03
    )


def test_file_frames_errors(tmp_path: Any) -> None:
    with pytest.raises(AudioError, match="no such file"):
        file_frames(tmp_path / "missing.wav")  # raised by the call, before any frame
    with pytest.raises(AudioError):
        file_frames(fixture_path("not_audio.wav"))
    with pytest.raises(OptionsError, match="speed"):
        file_frames(fixture_path("clean_sentence.wav"), speed=0)
    assert list(file_frames(fixture_path("zero_length.wav"), realtime=False)) == []


# --- a fake sounddevice -------------------------------------------------------------------


class FakeFlags:
    """sounddevice.CallbackFlags look-alike."""

    def __init__(self, input_overflow: bool = False) -> None:
        self.input_overflow = input_overflow

    def __bool__(self) -> bool:
        return self.input_overflow


class FakePortAudioError(Exception):
    pass


class FakeInputStream:
    """Drives the callback from a thread with scripted blocks, then ends as told."""

    def __init__(self, sd: FakeSoundDevice, **kwargs: Any) -> None:
        self.sd = sd
        self.kwargs = kwargs
        self.active = False
        self.closed = False
        self._thread: threading.Thread | None = None
        self._halt = threading.Event()
        self.done = threading.Event()
        """Set once the scripted blocks have all been delivered."""
        sd.streams.append(self)

    def start(self) -> None:
        if self.sd.fail_open:
            raise FakePortAudioError("Invalid sample rate [PaErrorCode -9997]")
        self.active = True
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._play()
        finally:
            self.done.set()

    def _play(self) -> None:
        callback: Callable[..., None] = self.kwargs["callback"]
        blocksize = self.kwargs["blocksize"]
        for i, (value, overflow) in enumerate(self.sd.script):
            if self._halt.is_set():
                return
            block = np.full((blocksize, 1), value, np.int16)
            block[0, 0] = i  # tag each block so the test can check the order
            callback(block, blocksize, None, FakeFlags(overflow))
            time.sleep(0.001)
        if self.sd.ending == "finished":
            self.active = False
            self.kwargs["finished_callback"]()
        elif self.sd.ending == "inactive":
            self.active = False
        # "silent": the device just stops calling back and the stream stays "active"

    def stop(self) -> None:
        self._halt.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self.active:
            self.active = False
            self.kwargs["finished_callback"]()

    def close(self) -> None:
        self.closed = True


class FakeSoundDevice:
    """The parts of the sounddevice module coach.stream uses."""

    PortAudioError = FakePortAudioError

    def __init__(
        self,
        devices: list[dict[str, Any]] | None = None,
        default: tuple[int, int] = (0, 1),
        script: list[tuple[int, bool]] | None = None,
        ending: str = "silent",
    ) -> None:
        self.devices = DEVICES if devices is None else devices
        self.default = SimpleNamespace(device=list(default))
        self.script = script or []
        self.ending = ending
        self.fail_open = False
        self.streams: list[FakeInputStream] = []

    def query_devices(self) -> list[dict[str, Any]]:
        return [dict(d, index=i) for i, d in enumerate(self.devices)]

    def InputStream(self, **kwargs: Any) -> FakeInputStream:  # noqa: N802 - sounddevice's name
        return FakeInputStream(self, **kwargs)


def _dev(name: str, ins: int, outs: int, rate: float = 48000.0) -> dict[str, Any]:
    return {
        "name": name,
        "hostapi": 0,
        "max_input_channels": ins,
        "max_output_channels": outs,
        "default_samplerate": rate,
    }


DEVICES = [
    _dev("HDA Intel PCH: ALC3246 Analog (hw:0,0)", 2, 2),
    _dev("Built-in Speakers", 0, 2),
    _dev("USB Headset: Audio (hw:1,0)", 1, 2, 44100.0),
    _dev("pulse", 32, 32),
]


@pytest.fixture
def fake_sd(monkeypatch: pytest.MonkeyPatch) -> FakeSoundDevice:
    sd = FakeSoundDevice()
    monkeypatch.setattr(stream, "load_sounddevice", lambda: sd)
    return sd


# --- devices ------------------------------------------------------------------------------


def test_missing_sounddevice_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sounddevice", None)  # makes `import sounddevice` fail
    with pytest.raises(DeviceError, match="libportaudio2.*pip install sounddevice.*--input"):
        stream.load_sounddevice()
    with pytest.raises(DeviceError, match="--input FILE"):
        stream.list_devices()
    with pytest.raises(DeviceError, match="sounddevice"):
        Microphone().open()
    assert issubclass(DeviceError, AudioError)


def test_list_devices(fake_sd: FakeSoundDevice) -> None:
    devices = stream.list_devices()
    assert [d.index for d in devices] == [0, 1, 2, 3]
    usb = devices[2]
    assert usb.name.startswith("USB Headset")
    assert (usb.max_input_channels, usb.max_output_channels) == (1, 2)
    assert usb.default_samplerate == 44100.0
    assert [d.is_default_input for d in devices] == [True, False, False, False]
    assert [d.is_default_output for d in devices] == [False, True, False, False]


def test_resolve_device(fake_sd: FakeSoundDevice) -> None:
    assert stream.resolve_device(None, "input") is None
    assert stream.resolve_device("usb", "input") == 2
    assert stream.resolve_device("USB HEADSET", "input") == 2
    assert stream.resolve_device("pulse", "input") == 3  # exact name
    assert stream.resolve_device("speakers", "output") == 1
    assert stream.resolve_device(0, "input") == 0
    assert stream.resolve_device("2", "input") == 2
    assert stream.resolve_device("hw:", "input") == 0  # several match: the first is taken


def test_resolve_device_no_match_lists_devices(fake_sd: FakeSoundDevice) -> None:
    with pytest.raises(DeviceError, match="no input device matches 'webcam'") as info:
        stream.resolve_device("webcam", "input")
    assert "USB Headset" in str(info.value) and "Built-in Speakers" not in str(info.value)
    with pytest.raises(DeviceError, match="no input device with index 1"):
        stream.resolve_device(1, "input")  # speakers cannot record
    with pytest.raises(DeviceError, match="index 9"):
        stream.resolve_device(9, "output")
    with pytest.raises(OptionsError, match="input' or 'output"):
        stream.resolve_device("usb", "both")  # type: ignore[arg-type]


# --- Microphone ---------------------------------------------------------------------------


def _collect(
    mic: Microphone, stop: threading.Event | None = None
) -> tuple[list[AudioFrame], Exception | None]:
    """Frames until the stream fails, and the error; waits for the fake's script first, so a
    slow machine cannot make the watchdog fire early."""
    for fake in getattr(stream.load_sounddevice(), "streams", []):
        assert fake.done.wait(60)
    got: list[AudioFrame] = []
    try:
        for frame in mic.frames(stop):
            got.append(frame)
    except DeviceError as exc:
        return got, exc
    return got, None


def test_microphone_device_vanishes_mid_stream(fake_sd: FakeSoundDevice) -> None:
    fake_sd.script = [(100, False)] * 6
    fake_sd.ending = "silent"  # callbacks just stop coming
    with Microphone("usb", frame_ms=30, timeout_s=0.2) as mic:
        assert mic.device_name.startswith("USB Headset")
        kwargs = fake_sd.streams[0].kwargs
        assert (kwargs["samplerate"], kwargs["channels"], kwargs["dtype"]) == (16000, 1, "int16")
        assert (kwargs["blocksize"], kwargs["device"]) == (FRAME_N, 2)
        got, error = _collect(mic)
    assert isinstance(error, DeviceError) and "no audio from" in str(error)
    assert "--input FILE" in str(error)
    # the frames before the failure were all delivered, in order, with sample-count times
    assert [f.start_s for f in got] == [k * 0.03 for k in range(6)]
    assert [int(f.samples[0]) for f in got] == list(range(6))
    assert all(f.samples.size == FRAME_N and (f.samples[1:] == 100).all() for f in got)
    assert fake_sd.streams[0].closed


@pytest.mark.parametrize("ending", ["finished", "inactive"])
def test_microphone_stream_closes_under_us(fake_sd: FakeSoundDevice, ending: str) -> None:
    fake_sd.script = [(7, False)] * 4
    fake_sd.ending = ending
    with Microphone(timeout_s=3600.0) as mic:  # the watchdog would hang the test, not fail it
        assert mic.device_name.startswith("HDA Intel")  # the default input
        got, error = _collect(mic)
    # noticed from the stream ("disconnected"), not from the watchdog ("no audio from")
    assert isinstance(error, DeviceError) and "disconnected" in str(error)
    assert len(got) == 4


def test_microphone_repeated_overflow(fake_sd: FakeSoundDevice) -> None:
    fake_sd.script = [(1, False), (1, True), (1, False)] + [(1, True)] * 10
    with Microphone(max_overflows=3, timeout_s=1.0) as mic:
        got, error = _collect(mic)
    assert isinstance(error, DeviceError) and "overflowing" in str(error)
    # one overflow between clean blocks is forgiven; the third overflow in a row fails
    # after the two before it were delivered
    assert len(got) == 5


def test_microphone_stop_event(fake_sd: FakeSoundDevice) -> None:
    fake_sd.script = [(3, False)] * 50
    stop = threading.Event()
    got: list[AudioFrame] = []
    with Microphone(timeout_s=5.0) as mic:
        for frame in mic.frames(stop):
            got.append(frame)
            if len(got) == 10:
                stop.set()
    assert len(got) == 10
    assert got[-1].start_s == pytest.approx(0.27, abs=1e-12)


def test_microphone_rechunks_other_block_sizes(fake_sd: FakeSoundDevice) -> None:
    mic = Microphone(frame_ms=30, timeout_s=0.1)
    with mic:
        cb = fake_sd.streams[0].kwargs["callback"]
        for value in range(5):  # 5 blocks of 200 samples = 1000 samples = 2 frames + 40
            cb(np.full((200, 1), value, np.int16), 200, None, FakeFlags())
        got, error = _collect(mic)
    assert isinstance(error, DeviceError)
    assert [f.start_s for f in got] == [0.0, 0.03]
    assert got[1].samples[0] == 2 and got[1].samples[-1] == 4


def test_microphone_open_errors(fake_sd: FakeSoundDevice, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(DeviceError, match="no input device matches 'webcam'"):
        Microphone("webcam").open()
    fake_sd.fail_open = True
    with pytest.raises(DeviceError, match="cannot open input device.*Invalid sample rate"):
        Microphone().open()
    with pytest.raises(RuntimeError, match="not open"):
        next(Microphone().frames())

    assert fake_sd.streams[-1].closed  # the stream that failed to start was closed

    no_default = FakeSoundDevice(default=(-1, 1))
    monkeypatch.setattr(stream, "load_sounddevice", lambda: no_default)
    with Microphone() as mic:  # no system default: the first device that records
        assert no_default.streams[0].kwargs["device"] == 0
        assert mic.device_name.startswith("HDA Intel")
    assert stream.resolve_device("  ", "input") is None

    none = FakeSoundDevice(devices=[_dev("Built-in Speakers", 0, 2)], default=(-1, 0))
    monkeypatch.setattr(stream, "load_sounddevice", lambda: none)
    with pytest.raises(DeviceError, match="no audio input device: connect a microphone"):
        Microphone().open()
    assert stream.list_devices()[0].is_default_input is False


def test_microphone_bad_options() -> None:
    with pytest.raises(OptionsError):
        Microphone(frame_ms=0)
    with pytest.raises(OptionsError):
        Microphone(timeout_s=0)
    with pytest.raises(OptionsError):
        Microphone(max_overflows=0)
