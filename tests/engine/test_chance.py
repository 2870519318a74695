"""The seeded shuffle: a fair permutation, and the same one for the same seed forever."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.chance import shuffle


def reference_shuffle(items: list[int], rng: random.Random) -> None:
    # The shuffle as first written: saved seeds must keep dealing the same hands.
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]


@pytest.mark.parametrize("size", [0, 1, 2, 7, 108, 112, 256, 257, 400])
def test_shuffle_deals_what_it_always_dealt(size: int) -> None:
    for seed in range(20):
        ours, reference = list(range(size)), list(range(size))
        shuffle(ours, random.Random(seed))
        reference_shuffle(reference, random.Random(seed))
        assert ours == reference
        assert sorted(ours) == list(range(size))


def test_shuffle_puts_every_card_everywhere_about_equally() -> None:
    rng = random.Random(1)
    first = Counter()
    for _ in range(6000):
        cards = list(range(6))
        shuffle(cards, rng)
        first[cards[0]] += 1
    assert set(first) == set(range(6))
    assert all(850 < n < 1150 for n in first.values())  # 1000 expected each
