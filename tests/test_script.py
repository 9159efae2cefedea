"""Script coverage on hand-built transcripts with known answers (no models, no audio)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, spaced, words

from coach.analysis.script import (
    KeyPoint,
    ScriptCoverage,
    load_script,
    parse_script,
    script_coverage,
    stem,
)
from coach.errors import OptionsError
from coach.transcript import Word

# The delivered text of audio_fixtures/practice_talk.wav (see its manifest entry).
PRACTICE_TALK = (
    "Good morning everyone. Today I want to make the case for code review on every pull "
    "request. Last year we merged 140 changes without a second pair of eyes, um and 23 of "
    "them broke the build. That cost us about 60 hours of firefighting. A careful review "
    "takes, you know, 20 minutes on average. I think the trade is clearly worth it. Tools "
    "like GitHub and Gerrit make the process easy. We would uh start with one reviewer per "
    "change, and maybe add a second reviewer for the payment service. Um the checklist "
    "covers tests and naming and security. Reviews also spread knowledge, like, new hires "
    "learn our style much faster. Uh Let's just try it for two weeks. Thank you."
)

# --- parsing --------------------------------------------------------------------------------


def test_bullets_and_headings_are_key_points_title_is_not() -> None:
    text = (
        "# Why we should review code\n"
        "\n"
        "Opening words that are prose, not a point.\n"
        "\n"
        "## The cost\n"
        "- Broken builds cost us time.\n"
        "* Reviews are cheap.\n"
        "+ Tools exist.\n"
        "1. Start small.\n"
        "2) Measure after two weeks.\n"
    )
    points, prose = parse_script(text)
    assert points == [
        "The cost",
        "Broken builds cost us time.",
        "Reviews are cheap.",
        "Tools exist.",
        "Start small.",
        "Measure after two weeks.",
    ]
    assert prose.splitlines() == ["Opening words that are prose, not a point.", *points]
    assert "review code" not in prose  # the title is neither a point nor prose


def test_several_level_one_headings_are_sections_not_a_title() -> None:
    points, _ = parse_script("# Problem\n\nIt breaks.\n\n# Fix\n\nReview it.\n")
    assert points == ["Problem", "Fix"]


def test_setext_title_and_section() -> None:
    points, prose = parse_script("Talk title\n==========\n\nSection\n-------\n\nSome prose.\n")
    assert points == ["Section"]
    assert prose == "Section\nSome prose."


def test_plain_prose_uses_each_sentence() -> None:
    text = (
        "Good morning. Dr. Smith found 23 bugs last year!\n"
        "Is that a lot? It cost us 1.5 days, e.g. on Fridays.\n\n"
        "Let's try it."
    )
    points, prose = parse_script(text)
    assert points == [
        "Good morning.",
        "Dr. Smith found 23 bugs last year!",
        "Is that a lot?",
        "It cost us 1.5 days, e.g. on Fridays.",
        "Let's try it.",
    ]
    assert prose.startswith("Good morning. Dr. Smith")


def test_markdown_is_stripped_from_points_and_prose() -> None:
    text = (
        "---\ntitle: front matter\n---\n"
        "# Title\n"
        "<!-- speaker note: breathe -->\n"
        "- **Bold** and *italic* and _under_ and ~~gone~~ words\n"
        "- See [the docs](https://example.com) and `make test` ![diagram](img.png)\n"
        "  continued on the next line\n"
        "  - [x] nested task item\n"
        "> A quoted line with <b>html</b>.\n"
        "\n"
        "```\nfenced text\n```\n"
        "***\n"
        "[ref]: https://example.com\n"
    )
    points, prose = parse_script(text)
    assert points == [
        "Bold and italic and under and gone words",
        "See the docs and make test continued on the next line",
        "nested task item",
    ]
    assert prose.splitlines() == [*points, "A quoted line with html.", "fenced text"]
    for mark in "*_[]()`#<>~!":
        assert mark not in prose, mark


def test_windows_line_endings_and_empty_text() -> None:
    assert parse_script("- one\r\n- two\r\n") == (["one", "two"], "one\ntwo")
    assert parse_script("") == ([], "")
    assert parse_script("# Only a title\n") == ([], "")


# --- normalisation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("review", "reviews"), ("review", "reviewing"), ("review", "reviewed"),
        ("change", "changes"), ("merge", "merged"), ("stop", "stopped"), ("party", "parties"),
        ("try", "tried"), ("team", "team's"), ("fall", "falling"), ("name", "naming"),
    ],
)  # fmt: skip
def test_stem_matches_inflections(a: str, b: str) -> None:
    assert stem(a) == stem(b)


@pytest.mark.parametrize("token", ["23", "process", "focus", "this", "thing", "need"])
def test_stem_leaves_short_and_special_words(token: str) -> None:
    assert stem(token) == token


# --- coverage -------------------------------------------------------------------------------

SCRIPT = """# Review talk

- Code review catches bugs early.
- Automated linting runs in CI before review.
"""


def test_covered_and_skipped_points_with_evidence_and_time() -> None:
    ws = spaced("So today honestly code review really catches the bugs early on. Thanks.")
    cov = script_coverage(SCRIPT, ws)
    assert isinstance(cov, ScriptCoverage)
    assert [p.covered for p in cov.points] == [True, False]
    hit, miss = cov.points
    assert hit == KeyPoint(
        "Code review catches bugs early.",
        True,
        1.0,
        "code review really catches the bugs early",
        0.9,
    )
    assert miss.evidence is None and miss.start_s is None
    assert miss.score == pytest.approx(1 / 5)  # "review" of automat, lint, run, ci, review
    assert (cov.covered, cov.skipped) == (1, 1)


def test_asr_variation_case_punctuation_plurals_numbers() -> None:
    script = "- Our teams merged 140 changes and 23 broke the build.\n- Twenty minutes per review."
    ws = spaced(
        "OUR TEAM, merges one hundred and forty change... and twenty-three, broke builds! "
        "20 MINUTES, per reviews."
    )
    cov = script_coverage(script, ws)
    assert [p.score for p in cov.points] == [1.0, 1.0]
    assert cov.points[1].evidence == "20 MINUTES, per reviews."
    assert cov.points[1].start_s == pytest.approx(12 * 0.3)


def test_digit_groups_and_split_recogniser_words() -> None:
    script = "- We shipped 1,000 builds."
    ws = words(("We", 0.0, 0.2), ("er...um,", 0.3, 0.8), ("shipped", 0.9, 1.2),
               ("1,000", 1.3, 1.8), ("builds.", 1.9, 2.3))  # fmt: skip
    cov = script_coverage(script, ws)
    assert cov.points[0].covered and cov.points[0].start_s == 0.9
    assert cov.verbatim_share == 1.0
    assert cov.delivered_words == 4  # the two fillers are not delivered words


def test_words_of_a_point_must_be_near_each_other() -> None:
    script = "- Gerrit makes reviewing easy."
    far = "Gerrit " + "we talked about lunch and the weather and the trains " * 3 + "reviewing easy"
    cov = script_coverage(script, spaced(far))
    assert cov.points[0].score == pytest.approx(2 / 4)  # review + easy; Gerrit is far away
    assert not cov.points[0].covered
    near = script_coverage(script, spaced("Gerrit, I promise, makes reviews so easy"))
    assert (
        near.points[0].covered
        and near.points[0].evidence == "Gerrit, I promise, makes reviews so easy"
    )


def test_threshold_decides_coverage() -> None:
    script = "- Reviews spread knowledge to the whole team."  # review spread knowledg whol team
    ws = spaced("reviews spread knowledge")
    assert script_coverage(script, ws).points[0].score == pytest.approx(3 / 5)
    assert script_coverage(script, ws, threshold=0.6).points[0].covered
    assert not script_coverage(script, ws, threshold=0.7).points[0].covered


def test_point_of_stop_words_only_is_still_matched() -> None:
    cov = script_coverage("## Why?\n\n- Because.", spaced("so why do we do this"))
    assert cov.points[0].covered and cov.points[0].evidence == "why"


def test_fillers_do_not_reduce_verbatim_share() -> None:
    script = "We should review every pull request before we merge it."
    plain = script_coverage(script, spaced(script))
    filled = script_coverage(
        script,
        spaced("Um, we should review, you know, every uh pull request before, like, we merge it."),
    )
    assert plain.verbatim_share == filled.verbatim_share == 1.0
    assert plain.drift == filled.drift == 0.0
    assert filled.delivered_words == filled.script_words == 10


def test_verbatim_share_is_low_for_a_paraphrase() -> None:
    script = "We should review every pull request before we merge it."
    cov = script_coverage(script, spaced("Let's make a second look mandatory for all PRs, okay?"))
    assert cov.verbatim_share < 0.2
    assert cov.drift == pytest.approx(1 - cov.verbatim_share)
    half = script_coverage(script, spaced("We should review every change and ship"))
    assert half.verbatim_share == pytest.approx(4 / 10)


def test_verbatim_share_counts_order() -> None:
    script = "one two three four five six"
    reversed_ = script_coverage(script, spaced("six five four three two one"))
    assert reversed_.verbatim_share == pytest.approx(1 / 6)


def test_empty_transcript_skips_everything() -> None:
    cov = script_coverage(SCRIPT, [])
    assert [p.covered for p in cov.points] == [False, False]
    assert all(p.score == 0.0 and p.evidence is None for p in cov.points)
    assert (cov.covered, cov.skipped, cov.delivered_words) == (0, 2, 0)
    assert (cov.verbatim_share, cov.drift) == (0.0, 1.0)


def test_fillers_only_transcript_skips_everything() -> None:
    cov = script_coverage(SCRIPT, spaced("um uh you know um"))
    assert cov.covered == 0 and cov.delivered_words == 0


def test_bad_threshold_and_empty_script_raise() -> None:
    with pytest.raises(OptionsError, match=r"threshold must be in \(0, 1\]"):
        script_coverage(SCRIPT, [], threshold=0)
    with pytest.raises(OptionsError, match="threshold"):
        script_coverage(SCRIPT, [], threshold=1.5)
    with pytest.raises(OptionsError, match="no words"):
        script_coverage("# Title only\n", spaced("hello"))


def test_to_dict_is_json_ready_and_rounded() -> None:
    cov = script_coverage(SCRIPT, spaced("code review catches bugs early"))
    d = cov.to_dict()
    json.dumps(d)
    assert d["points"][1]["score"] == 0.2
    assert d["points"][0]["start_s"] == 0.0
    assert set(d) == {"points", "covered", "skipped", "verbatim_share", "drift",
                      "script_words", "delivered_words"}  # fmt: skip
    thirds = script_coverage("- alpha beta gamma", spaced("alpha"), threshold=0.3).to_dict()
    assert thirds["points"][0]["score"] == 0.333


def test_long_talk_and_many_points() -> None:
    """A 3000-word delivery against a 50-point script (speed is measured in the report)."""
    points = [f"point{i} topic{i} detail{i} example{i} review" for i in range(50)]
    script = "\n".join(f"- {p}" for p in points)
    delivered = " ".join(f"{p} and some more words here" for p in points)
    filler = " ".join(["we", "talk", "about", "things"] * 450)
    ws = spaced(delivered + " " + filler + " " + filler[: len(filler) // 2])
    assert len(ws) >= 3000
    cov = script_coverage(script, ws)
    assert cov.covered == 50 and cov.verbatim_share == 1.0


# --- loading --------------------------------------------------------------------------------


def test_load_script_reads_markdown(tmp_path: Path) -> None:
    path = tmp_path / "talk.md"
    path.write_text("# T\n\n- one point\n- another point\n", encoding="utf-8")
    assert load_script(path) == (["one point", "another point"], "one point\nanother point")
    path.write_bytes("- point with BOM\n".encode("utf-16"))
    assert load_script(str(path))[0] == ["point with BOM"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such script file"),
        (b"", "empty script"),
        (b"  \n\t\n", "empty script"),
        (b"RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00", "binary file, not a text script"),
        (b"caf\xe9 au lait", "not UTF-8 text"),
        (b"# Just a title\n", "no words besides its title"),
    ],
)
def test_load_script_errors(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "talk.md"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(OptionsError, match=message) as info:
        load_script(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_load_script_folder(tmp_path: Path) -> None:
    with pytest.raises(OptionsError, match="is a folder"):
        load_script(tmp_path)


# --- the shipped practice talk --------------------------------------------------------------


def _practice_words() -> list[Word]:
    return spaced(PRACTICE_TALK, step_s=0.4, dur_s=0.3)


def test_practice_talk_script_skips_exactly_the_linting_point() -> None:
    points, prose = load_script(FIXTURES / "practice_talk.md")
    assert 6 <= len(points) <= 9
    assert "Code review for every pull request" not in points  # the title
    cov = script_coverage((FIXTURES / "practice_talk.md").read_text(), _practice_words())
    skipped = [p.text for p in cov.points if not p.covered]
    assert len(skipped) == 1 and "linting" in skipped[0]
    assert cov.skipped == 1 and cov.covered == len(points) - 1
    for p in cov.points:
        if p.covered:
            assert p.evidence and p.start_s is not None
            assert p.evidence.split()[0].strip(",.") in PRACTICE_TALK
    # the script is phrased differently from the delivery: neither verbatim nor unrelated
    assert 0.4 < cov.verbatim_share < 0.9
    tools = next(p for p in cov.points if "Gerrit" in p.text)
    assert tools.evidence == "GitHub and Gerrit make the process easy."
    assert tools.start_s == pytest.approx(0.4 * PRACTICE_TALK.split().index("GitHub"))
    assert prose.startswith("Make the case")
