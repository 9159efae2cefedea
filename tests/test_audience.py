"""The AI audience: key terms, question checks and fallbacks (pure), a scripted model,
and the real default GGUF."""

from __future__ import annotations

import json

import pytest

from coach.audience import (
    Audience,
    AudienceOptions,
    check_question,
    fallback_question,
    key_terms,
    parse_question,
)
from coach.errors import ModelError, OptionsError
from coach.llm import resolve_gguf

TALK = (
    "Good morning everyone. Today I want to make the case for code review on every pull "
    "request. Last year we merged 140 changes without review, and 23 of them broke the "
    "build. That cost us about 60 hours of firefighting. Tools like GitHub and Gerrit make "
    "review easy. A review takes 20 minutes on average."
)


def test_key_terms_numbers_names_then_frequent_words() -> None:
    terms = key_terms(TALK)
    assert terms[:3] == ["140 changes", "60 hours", "20 minutes"]
    assert "GitHub" in terms and "Gerrit" in terms
    assert "review" in terms
    assert "Good" not in terms and "Today" not in terms  # sentence starts are not names


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("Tell me about the 140 changes.", "not a question"),
        ("Why Gerrit? Why not GitHub?", "more than one question"),
        ("Why Gerrit? Because it is free.", "says more after the question"),
        ("Why " + "really " * 40 + "Gerrit?", "longer than 30 words"),
        ("What is your favourite colour?", "does not refer to the talk"),
        ("Why did 23 changes break the build?", None),
    ],
)
def test_check_question(text: str, reason: str | None) -> None:
    assert check_question(text, transcript=TALK, asked=[]) == reason


def test_check_question_rejects_repeats() -> None:
    asked = ["Why did the 140 changes break the build?"]
    assert check_question("Why did 140 changes break the build?", transcript=TALK,
                          asked=asked) == "repeats an earlier question"  # fmt: skip
    assert check_question("How long does a review take?", transcript=TALK, asked=asked) is None


def test_parse_question_tolerates_cut_replies() -> None:
    assert parse_question('{"question": "Why Gerrit?"}') == "Why Gerrit?"
    assert parse_question('{"question": "Why Ger') == "Why Ger"
    assert parse_question("nonsense") == ""


def test_fallback_questions_are_well_formed() -> None:
    for persona in ("curious", "skeptical", "expert", "a tired engineer"):
        q = fallback_question("Gerrit", persona)
        assert check_question(q, transcript=TALK, asked=[]) is None


def test_options_are_checked() -> None:
    with pytest.raises(OptionsError):
        AudienceOptions(max_words=2)


class ScriptedLlm:
    """Replies from a list, recording the prompts it got."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.prompts: list[list[dict[str, str]]] = []

    def complete(self, messages, **kwargs):  # type: ignore[no-untyped-def]
        self.prompts.append(messages)
        return self.replies.pop(0)


def test_audience_retries_then_falls_back() -> None:
    llm = ScriptedLlm([
        json.dumps({"question": "Why 140 changes? And why Gerrit?"}),  # two questions
        json.dumps({"question": "How were the 140 changes merged without review?"}),
        json.dumps({"question": "What is your favourite colour?"}),  # off topic
        json.dumps({"question": "Sure. I think it is fine."}),  # not a question
    ])  # fmt: skip
    a = Audience(llm, TALK)  # type: ignore[arg-type]
    q1 = a.next_question()
    assert q1.source == "llm" and q1.attempts == 2 and q1.focus == "140 changes"
    assert q1.rejected and q1.rejected[0].startswith("more than one question")
    q2 = a.next_question()
    assert q2.source == "fallback" and q2.focus == "60 hours" and "60 hours" in q2.text
    assert a.asked == [q1.text, q2.text]
    # the conversation grows by prompt + answer, so the next prompt extends the last one
    assert len(a.messages) == 5


def test_missing_gguf_is_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ModelError, match="--llm-model"):
        resolve_gguf(str(tmp_path / "nope.gguf"))
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a gguf at all")
    with pytest.raises(ModelError, match="not a GGUF"):
        resolve_gguf(str(bad))


@pytest.mark.models
def test_real_model_asks_grounded_single_questions() -> None:
    from coach.llm import ChatModel, LlmOptions

    llm = ChatModel.load(LlmOptions())
    a = Audience(llm, TALK, AudienceOptions(persona="skeptical"))
    qs = list(a.questions(3))
    for q in qs:
        assert check_question(q.text, transcript=TALK, asked=[]) is None, q
    assert len({q.focus for q in qs}) == 3
