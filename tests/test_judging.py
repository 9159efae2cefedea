"""The answer judge's model: its prompt (pure) and its odds from a real GGUF."""

from __future__ import annotations

import math

import pytest

from coach.judging import MAX_ANSWER_WORDS, AnswerJudge, JudgeOptions, judge_messages
from coach.llm import ChatModel, LlmOptions


def test_a_long_answer_is_cut_and_an_empty_context_is_named() -> None:
    msgs = judge_messages("", "Why?", "word " * (MAX_ANSWER_WORDS + 50))
    user = msgs[1]["content"]
    assert user.count("word") == MAX_ANSWER_WORDS and "..." in user
    assert "Situation: A question after a talk." in user


def test_a_gguf_without_a_chat_template_gets_a_plain_layout() -> None:
    class NoTemplate:
        metadata: dict[str, str] = {}

    model = ChatModel(NoTemplate(), LlmOptions(), path=None)  # type: ignore[arg-type]
    text = model._chat_prompt([{"role": "system", "content": "Be brief."},
                               {"role": "user", "content": "Hi?"}])  # fmt: skip
    assert text == "System: Be brief.\nUser: Hi?\nAssistant:"


@pytest.mark.models
def test_odds_from_a_real_model_are_repeatable_after_another_prompt() -> None:
    judge = AnswerJudge.load(JudgeOptions(model="qwen2.5-coder-0.5b-instruct", threads=2))
    ctx, q = "A caretaker's talk about fixing the gym roof.", "How long will the gym be closed?"
    answer = "About three weeks, over the summer holidays."
    first = judge.support(ctx, q, answer)
    assert 0.0 < first < 1.0
    judge.support(ctx, "Who pays for it?", "The council does.")  # another prompt between
    # the same tokens evaluated in other batches differ in the last float digits (measured:
    # 0.285 at once, 0.279 evaluated in three parts, with the 0.5B model)
    assert math.isclose(judge.support(ctx, q, answer), first, abs_tol=0.02)
    probs = judge.model.choice_probs(judge_messages(ctx, q, answer), ["yes", "no"])
    assert math.isclose(sum(probs), 1.0) and math.isclose(probs[0], first, abs_tol=0.02)


def test_a_missing_judge_model_names_the_judge_option() -> None:
    from coach.errors import ModelError

    with pytest.raises(ModelError, match="--judge-model PATH.*qwen2.5-coder-1.5b-instruct"):
        AnswerJudge.load(JudgeOptions(model="/nonexistent/judge.gguf"))


@pytest.mark.models
def test_a_closed_model_frees_its_memory_and_says_so_when_used() -> None:
    from coach.errors import ModelError

    llm = ChatModel.load(LlmOptions(model="qwen2.5-coder-0.5b-instruct", threads=2))
    judge = AnswerJudge.load(JudgeOptions(model="qwen2.5-coder-0.5b-instruct"), loaded=llm)
    assert judge.model is llm  # one file, loaded once
    llm.close()
    assert llm.closed
    with pytest.raises(ModelError, match="closed to free its memory"):
        judge.support("A talk.", "Why?", "Because.")
    with pytest.raises(ModelError, match="closed"):
        llm.complete([{"role": "user", "content": "Hi"}])
    other = AnswerJudge.load(JudgeOptions(model="qwen2.5-coder-0.5b-instruct"), loaded=llm)
    assert other.model is not llm  # a closed model is loaded anew
