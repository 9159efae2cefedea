"""The answer judge's model: its prompt (pure) and its odds from a real GGUF."""

from __future__ import annotations

import math

import pytest

from coach.judging import (
    MAX_ANSWER_WORDS,
    AnswerJudge,
    JudgeOptions,
    judge_messages,
    relevance_prompts,
)
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


def test_relevance_prompts_differ_only_by_the_question() -> None:
    asked, alone = relevance_prompts(" A talk about the roof. ", " How long? ")
    assert asked == "A talk about the roof.\nQuestion: How long?\nAnswer:"
    assert alone == "A talk about the roof.\nAnswer:"
    assert relevance_prompts("", "Why?")[1] == "A question after a talk.\nAnswer:"


@pytest.mark.models
def test_a_real_model_finds_an_answer_likelier_after_its_own_question() -> None:
    judge = AnswerJudge.load(JudgeOptions(model="qwen2.5-coder-0.5b-instruct", threads=2))
    ctx, q = "A caretaker's talk about fixing the gym roof.", "How long will the gym be closed?"
    answer = "About three weeks, over the summer holidays."
    asked, _alone = relevance_prompts(ctx, q)
    logprobs = judge.model.continuation_logprobs(asked, " " + answer)
    assert len(logprobs) == len(judge.model._model().tokenize((" " + answer).encode(),
                                                              add_bos=False))  # fmt: skip
    assert all(p <= 0.0 for p in logprobs)
    on = judge.relevance(ctx, q, answer)
    aside = judge.relevance(ctx, q, "My dog sat with me the whole weekend while I wrote it.")
    assert on.per_token_nats > aside.per_token_nats and on.total_nats > aside.total_nats
    again = judge.relevance(ctx, q, answer)  # after other prompts: the same, to a few digits
    assert math.isclose(again.total_nats, on.total_nats, abs_tol=0.3)
    assert judge.model.continuation_logprobs(asked, " " + answer, max_tokens=3) == pytest.approx(
        logprobs[:3], abs=0.1
    )


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
