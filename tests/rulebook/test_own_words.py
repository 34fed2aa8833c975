"""Every rulebook text is written in our own words: no text of any book, in any
language present, shares a run of RUN_WORDS words with an original rule sheet (the
seeds beside the repository, ``../shared/seeds``).

Texts and seeds are compared as plain words: case-folded, accents dropped, numbers,
punctuation and markup removed, placeholders removed and each plural read once per
branch, so neither punctuation, nor markup, nor a number can hide a copied run."""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from micropul_print.rulebook import games_with_rulebooks, rulebook_for
from micropul_print.rulebook.locales import PLACEHOLDER, PLURAL, load_locale, plural_branches

GAMES = {game: rulebook_for(game) for game in games_with_rulebooks()}

RUN_WORDS = 7
REPO_ROOT = Path(__file__).resolve().parents[2]
# CI clones the repository with shared/ beside it; a worktree reaches it the same way.
SEEDS = REPO_ROOT.parent / "shared" / "seeds"

_WORD = re.compile(r"[^\W\d_]+")  # letters only: digits, underscores, marks split words

Run = tuple[str, ...]


def words(text: str) -> list[str]:
    """The words of a text, case-folded and without accents; everything that is not a
    letter (punctuation, markup, digits, #) only separates words."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _WORD.findall(plain)


def readings(text: str) -> list[str]:
    """A locale text as it can be printed: one reading per plural category its plurals
    use (each plural takes that branch, or "other"), placeholders removed."""
    categories = sorted({category for _, branches in plural_branches(text)
                         for category in branches}) or ["other"]

    def reading(category: str) -> str:
        def branch(match: re.Match[str]) -> str:
            ((_, branches),) = plural_branches(match.group(0))
            # A language need not write "other" (Polish whole numbers never use it).
            return branches.get(category) or branches.get("other") or \
                next(iter(branches.values()))

        return PLACEHOLDER.sub(" ", PLURAL.sub(branch, text))

    return [reading(category) for category in categories]


def runs_of(seed_words: list[str]) -> set[Run]:
    return {tuple(seed_words[i:i + RUN_WORDS])
            for i in range(len(seed_words) - RUN_WORDS + 1)}


def shared_runs(text_words: list[str], seed: set[Run]) -> list[str]:
    """The longest stretches of ``text_words`` made of runs of RUN_WORDS words that
    also occur in the seed, each as one string."""
    hits = [i for i in range(len(text_words) - RUN_WORDS + 1)
            if tuple(text_words[i:i + RUN_WORDS]) in seed]
    stretches: list[tuple[int, int]] = []
    for i in hits:
        if stretches and i <= stretches[-1][1]:
            stretches[-1] = (stretches[-1][0], i + RUN_WORDS)
        else:
            stretches.append((i, i + RUN_WORDS))
    return [" ".join(text_words[start:end]) for start, end in stretches]


def copied(texts: Iterable[tuple[str, str]], seeds: dict[str, set[Run]]) -> Iterator[str]:
    """One line per run a (key, text) shares with a seed: key, seed and the run."""
    for key, text in texts:
        found: dict[tuple[str, str], None] = {}
        for reading in readings(text):
            for name, seed in seeds.items():
                for run in shared_runs(words(reading), seed):
                    found[name, run] = None
        for name, run in found:
            yield f"{key}: shares with {name}: \"{run}\""


def locale_files() -> list[tuple[str, Path]]:
    """Every language file of every book, as (game, path): the files present, so a
    new language or book is checked without touching this test."""
    return sorted((game, path) for game, rulebook in GAMES.items()
                  for path in rulebook.locales_dir.glob("*.yaml"))


@pytest.fixture(scope="module")
def seeds() -> dict[str, set[Run]]:
    found = sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []
    if not found:
        message = (f"no original rule sheets in {SEEDS} (the shared/ folder beside the "
                   f"repository): the own-words check of the rulebooks cannot run")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return {path.name: runs_of(words(path.read_text(encoding="utf-8"))) for path in found}


def test_every_book_and_language_is_checked() -> None:
    books = {game for game, _ in locale_files()}
    assert books == set(GAMES)
    for game, rulebook in GAMES.items():
        langs = {path.stem for g, path in locale_files() if g == game}
        assert set(rulebook.languages()) <= langs
        assert {"en", "it", "pl", "es"} <= langs


@pytest.mark.parametrize("game, path", locale_files(),
                         ids=[f"{g}-{p.stem}" for g, p in locale_files()])
def test_no_text_repeats_a_seed(game: str, path: Path, seeds: dict[str, set[Run]]) -> None:
    locale = load_locale(path.stem, path.parent)
    problems = list(copied(locale.texts.items(), seeds))
    assert not problems, (f"{game} rulebook, {locale.name} ({path}): "
                          f"{len(problems)} run(s) of {RUN_WORDS}+ words copied from "
                          f"an original rule sheet; write them in our own words:\n"
                          + "\n".join(problems))


PLANTED_SEED = ("Poni la tessera di partenza al centro del tavolo. Questa tessera è "
                "quella con quattro Micropul.")


def test_a_planted_run_is_found_whatever_its_punctuation_case_and_markup() -> None:
    seed = {"seed.txt": runs_of(words(PLANTED_SEED))}
    text = "Per iniziare, **POSA** la tessera — di partenza? — al «centro» della tàvola!"
    assert list(copied([("setup.start", text)], seed)) == []  # six words only
    planted = "Per iniziare, **Poni** la Tessera, di partenza: al «centro» del tàvolo!"
    assert list(copied([("setup.start", planted)], seed)) == [
        'setup.start: shares with seed.txt: "poni la tessera di partenza al centro del '
        'tavolo"']


def test_a_run_hidden_in_a_plural_or_around_a_placeholder_is_found() -> None:
    seed = {"seed.txt": runs_of(words("Ogni tessera nella tua riserva vale 2 punti "
                                      "vittoria alla fine."))}
    plural = ("Ogni tessera nella tua riserva vale "
              "{points, plural, one {# punto} other {# punti}} vittoria")
    assert list(copied([("end.supply", plural)], seed)) == [
        'end.supply: shares with seed.txt: "ogni tessera nella tua riserva vale punti '
        'vittoria"']
    placeholder = "Ogni tessera nella tua riserva vale {supply_points} punti"
    assert list(copied([("end.supply", placeholder)], seed)) == [
        'end.supply: shares with seed.txt: "ogni tessera nella tua riserva vale punti"']


def test_six_shared_words_are_not_a_copy() -> None:
    seed = {"seed.txt": runs_of(words("uno due tre quattro cinque sei sette otto"))}
    assert list(copied([("k", "zero due tre quattro cinque sei sette nove")], seed)) == []
    assert words("L'ultima tessera: **È** #3!") == ["l", "ultima", "tessera", "e"]
