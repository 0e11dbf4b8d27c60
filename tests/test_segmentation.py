"""The Chinese search index's segmenter: jieba's answers, remembered between builds."""

import jieba
import pytest

from releasekb.segmentation import CachedSegmenter

RUNS = ["分布式自动求导框架", "混合精度训练", "张量并行", "自动求导"]
WORDS = ["自动求导"]  # kept whole, as the glossary's short terms are


@pytest.fixture(scope="module")
def expected():
    for word in WORDS:
        jieba.add_word(word)
    return {run: list(jieba.cut(run)) for run in RUNS}


def test_answers_as_jieba_does_with_the_added_words(tmp_path, expected):
    segmenter = CachedSegmenter(WORDS, tmp_path)
    assert {run: list(segmenter.cut(run.encode("utf-8"))) for run in RUNS} == expected
    assert "自动求导" in expected["分布式自动求导框架"]  # the added word stayed whole


def test_a_later_build_answers_from_the_cache_without_loading_jieba(tmp_path, expected):
    first = CachedSegmenter(WORDS, tmp_path)
    for run in RUNS:
        list(first.cut(run))
    first.save()
    later = CachedSegmenter(WORDS, tmp_path)
    assert {run: list(later.cut(run)) for run in RUNS} == expected
    assert later.jieba is None  # every answer came from the file
    list(later.cut("量化感知训练"))  # new text needs jieba
    assert later.jieba is not None


def test_the_cache_follows_the_text_of_the_last_build(tmp_path):
    first = CachedSegmenter(WORDS, tmp_path)
    list(first.cut("张量并行"))
    first.save()
    second = CachedSegmenter(WORDS, tmp_path)
    list(second.cut("混合精度训练"))
    second.save()
    assert set(CachedSegmenter(WORDS, tmp_path).known) == {"混合精度训练"}


def test_other_added_words_use_another_cache(tmp_path):
    assert CachedSegmenter(WORDS, tmp_path).path != CachedSegmenter(WORDS + ["并行"], tmp_path).path


@pytest.mark.parametrize("damage", ["", "{not json", "[1, 2]", '{"张量": 3}'])
def test_a_damaged_cache_is_ignored(tmp_path, damage, expected):
    segmenter = CachedSegmenter(WORDS, tmp_path)
    segmenter.path.write_text(damage, encoding="utf-8")
    again = CachedSegmenter(WORDS, tmp_path)
    assert again.known == {}
    assert list(again.cut("分布式自动求导框架")) == expected["分布式自动求导框架"]
