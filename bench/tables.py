"""Markdown tables for the README, made from ``bench/results/*.json`` (never typed by hand).

    .venv/bin/python bench/tables.py questions judge latency accuracy accuracy_long pauses \
        accuracy_external speed ray

Each table names the results file, its date and commit, so every published figure can be
traced to the run that produced it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def _load(name: str) -> dict:
    return json.loads((RESULTS / f"{name}.json").read_text())


def _source(doc: dict, name: str) -> str:
    return f"(`bench/results/{name}.json`, {doc['date'][:10]}, commit {doc['commit']})"


def _share(g: dict) -> str:
    """An acceptable share with its counts: "21% (15/72)" (verdicts, or questions where
    the figures predate counting every reviewer's verdict)."""
    judged = g.get("verdicts", g.get("questions"))
    return f"{g['acceptable_share']:.0%} ({g['acceptable']}/{judged})"


def questions() -> str:
    doc = _load("questions")
    groups = doc["figures"]["groups"]
    gen = doc["figures"]["generation"]
    rows = [
        "| split | asked by | round or model | curious | skeptical | expert | described | all |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    keys = sorted({tuple(k.split("/")[:3]) for k in groups})
    order = {
        "sealed32": -29,
        "sealed33": -30,
        "sealed34": -31,
        "sealed35": -32,
        "sealed36": -33,
        "sealed37": -34,
        "sealed38": -35,
        "sealed39": -36,
        "sealed40": -37,
        "sealed41": -38,
        "sealed42": -39,
        "sealed43": -40,
        "sealed44": -41,
        "sealed45": -42,
        "sealed46": -43,
        "sealed47": -44,
        "sealed48": -45,
        "sealed49": -46,
        "sealed50": -47,
        "sealed51": -48,
        "sealed52": -49,
        "sealed53": -50,
        "sealed54": -51,
        "sealed55": -52,
        "sealed56": -53,
        "sealed57": -54,
        "sealed58": -55,
        "sealed59": -56,
        "sealed60": -57,
        "sealed61": -58,
        "sealed62": -59,
        "sealed63": -60,
        "sealed64": -61,
        "sealed65": -62,
        "sealed66": -63,
        "sealed67": -64,
        "sealed68": -65,
        "sealed69": -66,
        "sealed70": -67,
        "sealed71": -68,
        "sealed72": -69,
        "sealed73": -70,
        "sealed74": -71,
        "sealed75": -72,
        "sealed76": -73,
        "sealed77": -74,
        "sealed78": -75,
        "sealed79": -76,
        "sealed80": -77,
        "sealed81": -78,
        "sealed82": -79,
        "sealed83": -80,
        "sealed84": -81,
        "sealed31": -28,
        "sealed30": -27,
        "sealed29": -26,
        "sealed28": -25,
        "sealed27": -24,
        "sealed26": -23,
        "sealed25": -22,
        "sealed24": -21,
        "sealed23": -20,
        "sealed22": -19,
        "sealed21": -18,
        "sealed20": -17,
        "sealed19": -16,
        "sealed18": -15,
        "sealed17": -14,
        "sealed16": -13,
        "sealed15": -12,
        "sealed14": -11,
        "sealed13": -10,
        "sealed12": -9,
        "sealed11": -8,
        "sealed10": -7,
        "sealed9": -6,
        "sealed8": -5,
        "sealed7": -4,
        "sealed6": -3,
        "sealed5": -2,
        "sealed4": -1,
        "sealed3": 0,
        "sealed2": 1,
        "sealed": 2,
        "final": 3,
        "holdout": 4,
        "test": 5,
        "dev": 6,
    }
    rounds = {
        "none": "round d (d607a42)",
        "none-e": "round e (24cd278)",
        "none-f": "round f (e8fbf45)",
        "tiny.en ear": "round g (2c998b6)",
        "base ear": "round g (2c998b6), base as its ear",
        "none-h": "round h (8578675, frames pruned; taken back)",
        "none-i": "round i (be9eef4)",
        "none-j": "round j (ba1260d)",
        "none-k": "round k (93dfef0)",
        "none-k-nounsure": "round k (93dfef0), unsure words quoted",
        "prev-k": "round k: round j's code (5803102)",
        "none-l": "round l (a231da0)",
        "none-l-nounsure": "round l (a231da0), unsure words quoted",
        "default-m": "round m (87e8442), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-m": "qwen2.5-coder-0.5b-instruct, round m",
        "default-n": "round n (3047bab), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-n": "qwen2.5-coder-0.5b-instruct, round n",
        "qwen2.5-coder-0.5b-instruct-i": "qwen2.5-coder-0.5b-instruct, round i",
        "default-o": "round o (fb3221d, the question ranker), 0.5B loaded as in coach rehearse",
        "prev-o": "round o: round n's code (c127ded)",
        "qwen2.5-coder-0.5b-instruct-o": "qwen2.5-coder-0.5b-instruct, round o",
        "default-p": "round p (3b66db7), 0.5B loaded as in coach rehearse",
        "script-p": "round p (3b66db7), the talk as written given as --script",
        "prev-p": "round p: round n's code (c127ded)",
        "qwen2.5-coder-0.5b-instruct-p": "qwen2.5-coder-0.5b-instruct, round p",
        "default-q": "round q (400a7ec), 0.5B loaded as in coach rehearse",
        "stance-q": "round q (400a7ec), personas say where they stand (now the default)",
        "prev-q": "round q: round n's code (c127ded)",
        "qwen2.5-coder-0.5b-instruct-q": "qwen2.5-coder-0.5b-instruct, round q",
        "default-r": "round r (b914f89), 0.5B loaded as in coach rehearse",
        "prev-r": "round r: round n's code (c127ded)",
        "qwen2.5-coder-0.5b-instruct-r": "qwen2.5-coder-0.5b-instruct, round r",
        "default-s": "round s (bddb85c), 0.5B loaded as in coach rehearse",
        "prev-s": "round s: round n's code (c127ded)",
        "qwen2.5-coder-0.5b-instruct-s": "qwen2.5-coder-0.5b-instruct, round s",
        "default-t": "round t (f62435f, the sentence parser), 0.5B loaded as in coach rehearse",
        "prev-t": "round t: round s's code (ff25d78)",
        "qwen2.5-coder-0.5b-instruct-t": "qwen2.5-coder-0.5b-instruct, round t",
        "default-u": "round u (fd11cb8), 0.5B loaded as in coach rehearse",
        "prev-u": "round u: round s's code (ff25d78)",
        "qwen2.5-coder-0.5b-instruct-u": "qwen2.5-coder-0.5b-instruct, round u",
        "default-v": "round v (e5efb51), 0.5B loaded as in coach rehearse",
        "prev-v": "round v: round s's code (ff25d78)",
        "qwen2.5-coder-0.5b-instruct-v": "qwen2.5-coder-0.5b-instruct, round v",
        "default-w": "round w (abc8a21, the final code), 0.5B loaded as in coach rehearse",
        "prev-w": "round w: round s's code (ff25d78)",
        "qwen2.5-coder-0.5b-instruct-w": "qwen2.5-coder-0.5b-instruct, round w",
        "default-x": "round x (29b25af), 0.5B loaded as in coach rehearse",
        "prev-x": "round x: round w's code (c3943b8)",
        "qwen2.5-coder-0.5b-instruct-x": "qwen2.5-coder-0.5b-instruct, round x",
        "default-y": "round y (7249c18), 0.5B loaded as in coach rehearse",
        "prev-y": "round y: round w's code (c3943b8)",
        "qwen2.5-coder-0.5b-instruct-y": "qwen2.5-coder-0.5b-instruct, round y",
        "default-z": "round z (7249c18, as round y), 0.5B loaded as in coach rehearse",
        "prev-z": "round z: round w's code (c3943b8)",
        "qwen2.5-coder-0.5b-instruct-z": "qwen2.5-coder-0.5b-instruct, round z",
        "default-aa": "round aa (5f9c4c7), 0.5B loaded as in coach rehearse",
        "prev-aa": "round aa: round z's code (19285fd)",
        "qwen2.5-coder-0.5b-instruct-aa": "qwen2.5-coder-0.5b-instruct, round aa",
        "default-ab": "round ab (824b2df), 0.5B loaded as in coach rehearse",
        "prev-ab": "round ab: round z's code (19285fd)",
        "qwen2.5-coder-0.5b-instruct-ab": "qwen2.5-coder-0.5b-instruct, round ab",
        "default-ac": "round ac (6f331bd), 0.5B loaded as in coach rehearse",
        "prev-ac": "round ac: round z's code (19285fd)",
        "qwen2.5-coder-0.5b-instruct-ac": "qwen2.5-coder-0.5b-instruct, round ac",
        "default-ad": "round ad (f756fc4), 0.5B loaded as in coach rehearse",
        "prev-ad": "round ad: round z's code (19285fd)",
        "qwen2.5-coder-0.5b-instruct-ad": "qwen2.5-coder-0.5b-instruct, round ad",
        "default-ae": "round ae (question code as round ad's), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ae": "qwen2.5-coder-0.5b-instruct, round ae",
        "default-ai": "round ai (e5f8ccd), 0.5B loaded as in coach rehearse",
        "prev-ai": "round ai: the code before the ask clause (11899bd)",
        "qwen2.5-coder-0.5b-instruct-ai": "qwen2.5-coder-0.5b-instruct, round ai",
        "default-aj": "round aj (9f8f79a), 0.5B loaded as in coach rehearse",
        "prev-aj": "round aj: the code of round ai's commit (dc3eea1)",
        "qwen2.5-coder-0.5b-instruct-aj": "qwen2.5-coder-0.5b-instruct, round aj",
        "default-ak": "round ak (fb2c530), 0.5B loaded as in coach rehearse",
        "base-ak": "round ak (fb2c530), base as the audience's ear (--audience-asr base)",
        "prev-ak": "round ak: the code of the last session's end (98af486)",
        "qwen2.5-coder-0.5b-instruct-ak": "qwen2.5-coder-0.5b-instruct, round ak",
        "default-al": "round al (0881f01), 0.5B loaded as in coach rehearse",
        "prev-al": "round al: the code before the whole-proposal question (a63ee27)",
        "qwen2.5-coder-0.5b-instruct-al": "qwen2.5-coder-0.5b-instruct, round al",
        "default-am": "round am (8bd0b7c), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-am": "qwen2.5-coder-0.5b-instruct, round am",
        "default-an": "round an (bf1506d), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-an": "qwen2.5-coder-0.5b-instruct, round an",
        "default-ao": "round ao (c22ec30), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ao": "qwen2.5-coder-0.5b-instruct, round ao",
        "default-ap": "round ap (e035b30), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ap": "qwen2.5-coder-0.5b-instruct, round ap",
        "default-aq": "round aq (3873ded), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-aq": "qwen2.5-coder-0.5b-instruct, round aq",
        "ears-aq": "round aq (3873ded), --audience-asr base: base's words where tiny.en heard "
        "the same",
        "default-ar": "round ar (43e23bc), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ar": "qwen2.5-coder-0.5b-instruct, round ar",
        "prev-ar": "round aq's code (3873ded), run on round ar's talks",
        "default-as": "round as (e7dadd8), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-as": "qwen2.5-coder-0.5b-instruct, round as",
        "prev-as": "round ar's code (43e23bc), run on round as's talks",
        "default-at": "round at (ec48334), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-at": "qwen2.5-coder-0.5b-instruct, round at",
        "prev-at": "round as's code (e7dadd8), run on round at's talks",
        "default-au": "round au (e75bfb7), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-au": "qwen2.5-coder-0.5b-instruct, round au",
        "prev-au": "round at's code (ec48334), run on round au's talks",
        "default-av": "round av (61611eb), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-av": "qwen2.5-coder-0.5b-instruct, round av",
        "prev-av": "round au's code (e75bfb7), run on round av's talks",
        "default-aw": "round aw (bed58bb), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-aw": "qwen2.5-coder-0.5b-instruct, round aw",
        "prev-aw": "round av's code (61611eb), run on round aw's talks",
        "default-ax": "round ax (0ae0911), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ax": "qwen2.5-coder-0.5b-instruct, round ax",
        "prev-ax": "round aw's code (bed58bb), run on round ax's talks",
        "default-ay": "round ay (41cc045), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ay": "qwen2.5-coder-0.5b-instruct, round ay",
        "prev-ay": "round ax's code (0ae0911), run on round ay's talks",
        "default-az": "round az (bfd43fb), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-az": "qwen2.5-coder-0.5b-instruct, round az",
        "prev-az": "round ay's code (41cc045), run on round az's talks",
        "default-ba": "round ba (9c60037), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ba": "qwen2.5-coder-0.5b-instruct, round ba",
        "prev-ba": "round az's code (bfd43fb), run on round ba's talks",
        "default-bb": "round bb (2944624), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bb": "qwen2.5-coder-0.5b-instruct, round bb",
        "prev-bb": "round ba's code (9c60037), run on round bb's talks",
        "default-bc": "round bc (5c442e5), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bc": "qwen2.5-coder-0.5b-instruct, round bc",
        "prev-bc": "round bb's code (2944624), run on round bc's talks",
        "default-bd": "round bd (39cf39f), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bd": "qwen2.5-coder-0.5b-instruct, round bd",
        "prev-bd": "round bc's code (5c442e5), run on round bd's talks",
        "default-be": "round be (08ab9eb), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-be": "qwen2.5-coder-0.5b-instruct, round be",
        "prev-be": "round bd's code (39cf39f), run on round be's talks",
        "default-bf": "round bf (e823157), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bf": "qwen2.5-coder-0.5b-instruct, round bf",
        "prev-bf": "round be's code (08ab9eb), run on round bf's talks",
        "default-bg": "round bg (d6b7abd), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bg": "qwen2.5-coder-0.5b-instruct, round bg",
        "prev-bg": "round bf's code (3506a25), run on round bg's talks",
        "default-bh": "round bh (e4d897d), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bh": "qwen2.5-coder-0.5b-instruct, round bh",
        "prev-bh": "round bg's code (d6b7abd), run on round bh's talks",
        "default-bi": "round bi (b01d530), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bi": "qwen2.5-coder-0.5b-instruct, round bi",
        "prev-bi": "round bh's code (e4d897d), run on round bi's talks",
        "default-bj": "round bj (2beb090), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bj": "qwen2.5-coder-0.5b-instruct, round bj",
        "prev-bj": "round bi's code (b01d530), run on round bj's talks",
        "default-bk": "round bk (1f8db19), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bk": "qwen2.5-coder-0.5b-instruct, round bk",
        "prev-bk": "round bj's code (2beb090), run on round bk's talks",
        "default-bl": "round bl (6a04066), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bl": "qwen2.5-coder-0.5b-instruct, round bl",
        "prev-bl": "round bk's code (1f8db19), run on round bl's talks",
        "default-bm": "round bm (d0f936f), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bm": "qwen2.5-coder-0.5b-instruct, round bm",
        "prev-bm": "round bl's code (6a04066), run on round bm's talks",
        "default-bn": "round bn (ba0ad51), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bn": "qwen2.5-coder-0.5b-instruct, round bn",
        "prev-bn": "round bm's code (d0f936f), run on round bn's talks",
        "default-bo": "round bo (b31e203), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bo": "qwen2.5-coder-0.5b-instruct, round bo",
        "prev-bo": "round bn's code (ba0ad51), run on round bo's talks",
        "default-bp": "round bp (d4cecf6), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bp": "qwen2.5-coder-0.5b-instruct, round bp",
        "prev-bp": "round bo's code (b31e203), run on round bp's talks",
        "default-bq": "round bq (d55806a), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bq": "qwen2.5-coder-0.5b-instruct, round bq",
        "prev-bq": "round bp's code (d4cecf6), run on round bq's talks",
        "default-br": "round br (424f46d), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-br": "qwen2.5-coder-0.5b-instruct, round br",
        "prev-br": "round bq's code (d55806a), run on round br's talks",
        "default-bs": "round bs (2e9ad59), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bs": "qwen2.5-coder-0.5b-instruct, round bs",
        "prev-bs": "round br's code (424f46d), run on round bs's talks",
        "default-bt": "round bt (af36336), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bt": "qwen2.5-coder-0.5b-instruct, round bt",
        "prev-bt": "round bs's code (2e9ad59), run on round bt's talks",
        "default-bu": "round bu (3f7d68a), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bu": "qwen2.5-coder-0.5b-instruct, round bu",
        "prev-bu": "round bt's code (af36336), run on round bu's talks",
        "default-bv": "round bv (6f78431), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bv": "qwen2.5-coder-0.5b-instruct, round bv",
        "prev-bv": "round bu's code (3f7d68a), run on round bv's talks",
        "default-bw": "round bw (133ed25), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bw": "qwen2.5-coder-0.5b-instruct, round bw",
        "prev-bw": "the code before round bw's change (11cffcf, round bv's mended), on its talks",
        "default-bx": "round bx (4f1a5a2), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bx": "qwen2.5-coder-0.5b-instruct, round bx",
        "prev-bx": "the code before round bw's change (11cffcf), on round bx's talks",
        "default-by": "round by (13cb5ec), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-by": "qwen2.5-coder-0.5b-instruct, round by",
        "prev-by": "round bx's code, mended (cf03d8c: one question of the whole), on its talks",
        "default-bz": "round bz (c9affd7), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-bz": "qwen2.5-coder-0.5b-instruct, round bz",
        "prev-bz": "round by's code (13cb5ec), on round bz's talks",
        "default-ca": "round ca (1c0ff70), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ca": "qwen2.5-coder-0.5b-instruct, round ca",
        "prev-ca": "the code before round bw's change (11cffcf), on round ca's talks",
        "default-cb": "round cb (d3261fa), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-cb": "qwen2.5-coder-0.5b-instruct, round cb",
        "prev-cb": "the code before round bw's change (11cffcf), on round cb's talks",
        "default-cc": "round cc (d639d1a), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-cc": "qwen2.5-coder-0.5b-instruct, round cc",
        "prev-cc": "the code before round bw's change (11cffcf), on round cc's talks",
        "default-cd": "round cd (d057304), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-cd": "qwen2.5-coder-0.5b-instruct, round cd",
        "prev-cd": "the code before round cd's change (cc0cef9), on round cd's talks",
        "default-ce": "round ce (cbd4e41), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ce": "qwen2.5-coder-0.5b-instruct, round ce",
        "prev-ce": "the code before this session's changes (cc0cef9), on round ce's talks",
        "default-cf": "round cf (6bde46a), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-cf": "qwen2.5-coder-0.5b-instruct, round cf",
        "prev-cf": "the code before this session's changes (cc0cef9), on round cf's talks",
        "default-cg": "round cg (3d614ff), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-cg": "qwen2.5-coder-0.5b-instruct, round cg",
        "prev-cg": "the code before the last session's changes (cc0cef9), on round cg's talks",
        "default-ch": "round ch (913b4c2), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ch": "qwen2.5-coder-0.5b-instruct, round ch",
        "prev-ch": "the code before round cg's mends (718b480), on round ch's talks",
        "default-ci": "round ci (a945416), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ci": "qwen2.5-coder-0.5b-instruct, round ci",
        "prev-ci": "the code before round ci's change (71045bc), on round ci's talks",
        "default-cj": "round cj (29da36f), 0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-cj": "qwen2.5-coder-0.5b-instruct, round cj",
        "prev-cj": "the code before round ci's and cj's changes (71045bc), on round cj's talks",
        "default-ck": "round ck (98b3e16: the judge model reads the talk for its ask), 0.5B "
        "loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-ck": "qwen2.5-coder-0.5b-instruct, round ck",
        "prev-ck": "the code before the ask reading (15c1086), on round ck's talks",
        "default-cl": "round cl (7795d07: the ask reading, read again at the talk's end), "
        "0.5B loaded as in coach rehearse",
        "qwen2.5-coder-0.5b-instruct-cl": "qwen2.5-coder-0.5b-instruct, round cl",
        "prev-cl": "the code before the ask reading (15c1086), on round cl's talks",
        "default-ah": "round ah (2fdb7f2), 0.5B loaded as in coach rehearse",
        "prev-ah": "round ah: the code before the ask clause (11899bd)",
        "qwen2.5-coder-0.5b-instruct-ah": "qwen2.5-coder-0.5b-instruct, round ah",
        "default-ag": "round ag (73f4009, the ask said back), 0.5B loaded as in coach rehearse",
        "prev-ag": "round ag: the code before the ask clause (11899bd)",
        "qwen2.5-coder-0.5b-instruct-ag": "qwen2.5-coder-0.5b-instruct, round ag",
        "default-af": "round af (e20ee3c), 0.5B loaded as in coach rehearse",
        "prev-af": "round af: round ae's code (48bd2a4)",
        "qwen2.5-coder-0.5b-instruct-af": "qwen2.5-coder-0.5b-instruct, round af",
    }
    """Which commit each grounded round measured (grounded questions need no model)."""
    names = {"coach": "coach, model's wording", "coach-llm": "coach, model's wording",
             "coach-grounded": "coach, grounded", "baseline": "plain prompt"}  # fmt: skip
    for split, system, model in sorted(keys, key=lambda k: (order.get(k[0], 3), k)):
        cells = []
        for persona in ("curious", "skeptical", "expert", "described", "all"):
            g = groups.get(f"{split}/{system}/{model}/{persona}")
            cells.append(_share(g) if g else "-")
        name = names.get(system, system)
        model = rounds.get(model, model)
        rows.append(f"| {split} | {name} | {model} | " + " | ".join(cells) + " |")
    rows.append("")
    rows.append(
        "| model | seconds per question p50 / p95 (coach) | peak memory | "
        "questions from the model / plain fallbacks | asked / requested |"
    )
    rows.append("| --- | --- | --- | --- | --- |")
    for model, p in sorted(gen.items()):
        src = p.get("sources", {})
        rows.append(
            f"| {model} | {p.get('coach_s_p50')} / {p.get('coach_s_p95')} | "
            f"{p.get('peak_rss_mb'):.0f} MB | {src.get('llm', 0) + src.get('grounded', 0)} / "
            f"{src.get('fallback', 0)} | {p.get('asked', '-')} / {p.get('requested', '-')} |"
        )
    return "\n".join(rows) + "\n\n" + _source(doc, "questions")


def interview_questions() -> str:
    doc = _load("interview_questions")
    groups = doc["figures"]["groups"]
    rows = ["| split | wording | acceptable |", "| --- | --- | --- |"]
    for name, g in sorted(groups.items()):
        split, _system, model, persona = name.split("/")
        if persona == "all":
            wording = "the banks' own" if model.startswith("none") else f"{model} rewording"
            rows.append(f"| {split} | {wording} | {_share(g)} |")
    return "\n".join(rows) + "\n\n" + _source(doc, "interview_questions")


def judge() -> str:
    doc = _load("judge")
    f = doc["figures"]
    rows = [
        "| judged by | split | pairs | addressed precision | addressed recall | "
        "partial P / R | off-topic P / R | dodged P / R |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    model = f.get("judge_model")
    runs = [(f, {"words_only": "the words alone", "with_model": f"words + {model}"})]
    sources = [_source(doc, "judge")]
    tried = "judge_answer-shape-rules"  # rules tried and reverted (8629970), both ways
    if (RESULTS / f"{tried}.json").exists():
        doc_t = _load(tried)
        label = "{how}, with the answer-shape rules tried and not kept ({commit})"
        runs.append((doc_t["figures"], {
            mode: label.format(how=how, commit=doc_t["commit"])
            for mode, how in (("words_only", "the words alone"),
                              ("with_model", f"words + {model}"))}))  # fmt: skip
        sources.append(_source(doc_t, tried))
    for name, label in (  # the same pairs: the weights before batch e's, the code before
        ("judge_fit-on-211", "words + {model}, weights fitted on the first 211 dev pairs "
                             "({commit})"),
        ("judge_before-relevance", "words + {model}'s odds alone (before the question's gain, "
                                   "{commit})"),
    ):  # fmt: skip
        if (RESULTS / f"{name}.json").exists():
            before = _load(name)
            label = label.format(model=model, commit=before["commit"])
            runs.append((before["figures"], {"with_model": label}))
            sources.append(_source(before, name))
    for figures, modes in runs:
        for mode, label in modes.items():
            for split, s in figures.get(mode, {}).items():  # in bench/judge.py's SPLITS order
                pr = lambda k, s=s: f"{s[k]['precision']} / {s[k]['recall']}"  # noqa: E731
                rows.append(
                    f"| {label} | {split} | {s['pairs']} | {s['addressed']['precision']} | "
                    f"{s['addressed']['recall']} | {pr('partial')} | {pr('off_topic')} | "
                    f"{pr('dodged')} |"
                )
    return "\n".join(rows) + "\n\n" + " ".join(sources)


def latency() -> str:
    rows = [
        "| model | wording | answer judge (after the questions) | turns | first question after "
        "the talk | question after an answer p50 / p95 | follow-up heard p50 / p95 (n) | "
        "peak memory |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    sources = []
    for path in sorted(RESULTS.glob("latency*.json")):
        doc = json.loads(path.read_text())
        f = doc["figures"]
        st = f["stages"].get("question_after_decision_s", {})
        fu = f.get("follow_up_heard_s", {})
        stem = Path(f["talk_file"].split()[0]).stem if "talk_file" in f else ""
        talk = "" if stem in ("", "practice_talk") else f"on the proposal {stem}"
        reading = ""
        if "ask_reading" in f:
            reading = "the talk read for its ask" if f["ask_reading"] else "no ask reading"
        variant = ", ".join(v for v in (talk, reading, f.get("variant", "")) if v)
        rows.append(
            f"| {f.get('llm', 'qwen2.5-coder-0.5b-instruct')} | {f.get('wording', 'llm')} | "
            f"{f.get('judge_model', 'none (before it existed)')}"
            f"{', ' + variant if variant else ''} | {st.get('n', '-')} | "
            f"{f['talk'].get('question_after_decision_s')} s{_sentence(f['talk'])} | "
            f"{st.get('p50')} / "
            f"{st.get('p95')} s | {fu.get('p50', '-')} / {fu.get('p95', '-')} s "
            f"({fu.get('n', 0)}) | {f['peak_mb']} MB |"
        )
        sources.append(_source(doc, path.stem))
    return "\n".join(rows) + "\n\n" + " ".join(sources)


def _sentence(talk: dict) -> str:
    """When the first question's own sentence was heard, if its quote was said first."""
    at = talk.get("question_sentence_after_decision_s")
    return "" if at is None else f" (its quote; the question sentence at {at} s)"


def pauses() -> str:
    doc = _load("pauses")
    systems = doc["figures"]["systems"]
    rows = ["| split | condition | true pauses | webrtcvad's voice: found, P / R / F1 | "
            "Silero's voice (coach): found, P / R / F1 |",
            "| --- | --- | --- | --- | --- |"]  # fmt: skip
    for key, web in systems["webrtcvad"].items():
        split, condition = key.split("/")
        cells = [f"{s['found']}, {s['precision']:.2f} / {s['recall']:.2f} / {s['f1']:.2f}"
                 for s in (web, systems["silero"][key])]  # fmt: skip
        rows.append(f"| {split.replace('_', '-')} ({web['clips']} clips) | {condition} | "
                    f"{web['truth']} | {cells[0]} | {cells[1]} |")  # fmt: skip
    return "\n".join(rows) + "\n\n" + _source(doc, "pauses")


def _prf(d: dict) -> str:
    """Precision / recall / F1 (hits/false/missed)."""
    return (f"{d['precision']:.2f} / {d['recall']:.2f} / {d['f1']:.2f} "
            f"({d['tp']}/{d['fp']}/{d['fn']})")  # fmt: skip


def accuracy() -> str:
    doc = _load("accuracy")
    systems = doc["figures"]["systems"]
    rows = [
        "| split | system | filled pauses in order P / R / F1 (hits/false/missed) | "
        "in time, 0.3 s: P / R / F1 (hits/false/missed) | over silence: voice activity / "
        "truth | false fillers, clips with none | word-count error: per clip / pooled / "
        "read speech |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]

    def words(s: dict) -> str:
        if "word_count_error_pooled" not in s:
            return f"{s['word_count_error']:.1%}"
        read = f"{s['read_speech_word_count_error']:.1%} ({s['read_speech_clips']} clips)"
        return f"{s['word_count_error']:.1%} / {s['word_count_error_pooled']:.1%} / {read}"

    for split in ("dev", "held_out"):
        for name, sys_fig in systems.items():
            s = sys_fig[split]
            timed = _prf(s["timed"]) if "timed" in s else "-"
            truth = s.get("over_truth_silence", "-")
            rows.append(
                f"| {split.replace('_', '-')} ({s['clips']} clips, {s['filled_pauses_truth']} "
                f"filled pauses) | {name} | {_prf(s['in_order'])} | {timed} | "
                f"{s['over_silence']} / {truth} | {s['false_filler_clips']} of "
                f"{s['clean_clips']} | {words(s)} |"
            )
    rows += [
        "",
        "| acoustic_corpus.wav (held-out) | words per minute (truth) | error | pauses P / R | "
        "pause boundary error |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, sys_fig in systems.items():
        c = sys_fig["clips"].get("acoustic_corpus.wav")
        if c and "pace" in c:
            p, q = c["pace"], c["pauses"]
            rows.append(
                f"| {name} | {p['wpm']} ({p['wpm_true']}) | {p['wpm_error']:.1%} | "
                f"{q['precision']:.2f} / {q['recall']:.2f} | {q['boundary_error_s']:.3f} s |"
            )
    return "\n".join(rows) + "\n\n" + _source(doc, "accuracy")


def accuracy_long() -> str:
    doc = _load("accuracy_long")
    f = doc["figures"]
    rows = [
        f"| {f['audio_s'] / 60:.1f} min joined from {f['occurrences']} clips | split | filled "
        "pauses in order P / R / F1 (hits/false/missed) | false fillers, clips with none | "
        "word-count error pooled / read speech |",
        "| --- | --- | --- | --- | --- |",
    ]
    for split in ("dev", "held_out"):
        for name, sys_fig in f["systems"].items():
            s = sys_fig[split]
            rows.append(
                f"| {name} | {split.replace('_', '-')} ({s['filled_pauses_truth']} filled "
                f"pauses) | {_prf(s['in_order'])} | {s['false_filler_clips']} of "
                f"{s['clean_clips']} | {s['word_count_error_pooled']:.1%} / "
                f"{s['read_speech_word_count_error']:.1%} |"
            )
    return "\n".join(rows) + "\n\n" + _source(doc, "accuracy_long")


def accuracy_external() -> str:
    doc = _load("accuracy_external")
    systems = doc["figures"]["systems"]
    src = doc["figures"]["sources"]
    rows = [
        "| system | filled pauses in order P / R / F1 (hits/false/missed) | in time, 0.3 s: "
        "P / R / F1 (hits/false/missed) | over silence: voice activity / truth | "
        "word-count error |",
        "| --- | --- | --- | --- | --- |",
    ]

    for name, sys_fig in systems.items():
        s = sys_fig["external"]
        rows.append(
            f"| {name} | {_prf(s['in_order'])} | {_prf(s['timed'])} | {s['over_silence']} / "
            f"{s['over_truth_silence']} | {s['word_count_error']:.1%} |"
        )
    first = next(iter(systems.values()))
    clips = list(first["clips"])
    rows += ["", "| system | " + " | ".join(f"{c}: words per minute (truth), pauses P / R"
                                          for c in clips) + " |",
             "| --- |" + " --- |" * len(clips)]  # fmt: skip
    for name, sys_fig in systems.items():
        cells = []
        for c in clips:
            p, q = sys_fig["clips"][c]["pace"], sys_fig["clips"][c]["pauses"]
            cells.append(f"{p['wpm']} ({p['wpm_true']}), {q['precision']:.2f} / "
                         f"{q['recall']:.2f}")  # fmt: skip
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    s = first["external"]
    head = (f"external: {s['clips']} clips, {s['filled_pauses_truth']} filled pauses "
            f"({s['timed']['tp'] + s['timed']['fn']} with times), from "
            + ", ".join(f"PyPI {x['package']} {x['version']}" for x in src))  # fmt: skip
    return head + "\n\n" + "\n".join(rows) + "\n\n" + _source(doc, "accuracy_external")


def speed() -> str:
    doc = _load("speed")
    f = doc["figures"]
    a = f["audio_s"]
    workers = f.get("asr_workers", 1)
    rows = [
        f"| {a / 60:.1f} min of audio, {f['asr_model']}, {f.get('cpus', '')} CPUs, "
        f"median of {len(f['runs']['coach'])} runs | seconds | x real time | peak memory |",
        "| --- | --- | --- | --- |",
        f"| bare faster-whisper (beam 1, its VAD, word times), {f['cpu_threads']} thread(s), "
        f"whole process | {f['wall_s']['bare']} | {f['rtf']['bare']} | "
        f"{f['peak_mb']['bare']:.0f} MB |",
    ]
    if "bare_all_cpus" in f["wall_s"]:
        rows += [
            f"| bare faster-whisper, {f['cpus']} threads, whole process | "
            f"{f['wall_s']['bare_all_cpus']} | {f['rtf']['bare_all_cpus']} | "
            f"{f['peak_mb']['bare_all_cpus']:.0f} MB |",
            f"| bare faster-whisper's BatchedInferencePipeline (batch 8, its VAD, word times, "
            f"no filler prompt), {f['cpus']} threads, whole process, for reference | "
            f"{f['wall_s']['bare_batched']} | {f['rtf']['bare_batched']} | "
            f"{f['peak_mb']['bare_batched']:.0f} MB |",
        ]
    rows.append(
        f"| coach score ({workers} recogniser worker(s) of {f['cpu_threads']} thread(s)), "
        f"whole process | {f['wall_s']['coach']} | {f['rtf']['coach']} | "
        f"{f['peak_mb']['coach']:.0f} MB |"
    )
    if "coach_fast" in f["wall_s"]:
        rows.append(f"| coach score --fast (one piece, primed in its first window), whole "
                    f"process | {f['wall_s']['coach_fast']} | {f['rtf']['coach_fast']} | "
                    f"{f['peak_mb']['coach_fast']:.0f} MB |")  # fmt: skip
    split = f["coach_split_s"]
    for label, key in (("start-up (interpreter, imports, model loads) and report writing",
                        "startup_and_rest_s"), ("decoding", "decode_s"),
                       ("voice activity (webrtcvad)", "vad_s"), ("ASR", "asr_s"),
                       ("waiting for the pitch and loudness tracks", "tracks_wait_s"),
                       ("analysis", "analysis_s")):  # fmt: skip
        rows.append(f"| &nbsp;&nbsp;coach: {label} | {split[key]} | {split[key] / a:.4f} | |")
    t = f["coach_tracks_beside_asr_s"]
    rows.append(f"| &nbsp;&nbsp;coach: pitch and loudness tracks, in a thread of low priority "
                f"beside the ASR | ({t}) | ({t / a:.4f}) | |")  # fmt: skip
    return "\n".join(rows) + "\n\n" + _source(doc, "speed")


def ray() -> str:
    doc = _load("ray")
    f = doc["figures"]
    n, n_long = f["clips"], f["clips_long"]
    rows = [
        f"| {n} and {n_long} clips ({f['audio_s_per_clip']} s each on average), {f['asr_model']}, "
        f"{f['cores']} cores, median of {f['repeats']} runs | {n} clips, s | {n_long} clips, s "
        f"| clips/min ({n_long} clips) | cost per clip, s | fixed cost, s |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for key, label in (("jobs", f"coach score --jobs {f['jobs']}, whole process"),
                       ("ray", "coach score --ray (local Ray, one worker per CPU), whole "
                               "process")):  # fmt: skip
        m = f["modes"][key]
        rows.append(
            f"| {label} | {m['wall_s_short']} | {m['wall_s_long']} | "
            f"{m['clips_per_min_long']} | {m['per_clip_s']} | {m['fixed_s']} |"
        )
    c = f["cpu"]
    rows += [
        "",
        f"| CPU seconds per clip, {c['clips']} clips in one process each | --jobs {f['jobs']} "
        "| --ray |",
        "| --- | --- | --- |",
        f"| all (workers from their start, the head, Ray's daemons) | "
        f"{c['jobs_cpu_s_per_clip']} | {c['ray_cpu_s_per_clip']} |",
        f"| &nbsp;&nbsp;the workers | | {c['ray_workers_cpu_s_per_clip']} |",
        f"| &nbsp;&nbsp;the head (driver) | | {c['ray_driver_cpu_s_per_clip']} |",
        f"| &nbsp;&nbsp;Ray's daemons | | {c['ray_reaped_cpu_s_per_clip']} |",
        f"| Ray's overhead per clip | | {c['ray_overhead_cpu_s_per_clip']} |",
        f"| peak memory per Ray worker | | "
        f"{', '.join(f'{m:.0f}' for m in c['ray_worker_peak_mb'])} MB |",
    ]
    return "\n".join(rows) + "\n\n" + _source(doc, "ray")


def main() -> int:
    names = ["questions", "interview_questions", "judge", "latency", "accuracy",
             "accuracy_external", "pauses", "speed", "ray"]  # fmt: skip
    for name in sys.argv[1:] or names:
        print(globals()[name]())
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
