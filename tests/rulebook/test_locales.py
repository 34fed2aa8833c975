"""The language catalogues: every language present has exactly the English keys and
placeholders; mistakes are reported at their file:line:col."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from micropul_print.errors import UserError
from micropul_print.rulebook.locales import (
    LOCALES_DIR,
    REFERENCE_LANGUAGE,
    available_languages,
    check_all_locales,
    check_locale,
    fill,
    load_locale,
    load_locales,
    placeholders,
)

DATA = Path(__file__).parent / "data"


def test_languages_come_from_the_files_present_reference_first() -> None:
    langs = available_languages()
    assert langs[0] == REFERENCE_LANGUAGE
    assert sorted(langs) == sorted(p.stem for p in LOCALES_DIR.glob("*.yaml"))


@pytest.mark.parametrize("lang", available_languages())
def test_every_language_has_every_key_and_the_same_placeholders(lang: str) -> None:
    reference = load_locale(REFERENCE_LANGUAGE)
    locale = load_locale(lang)
    assert check_locale(locale, reference) == []
    assert locale.texts.keys() == reference.texts.keys()
    for key, text in reference.texts.items():
        assert placeholders(locale.texts[key]) == placeholders(text), key


def test_every_language_names_itself_differently() -> None:
    """meta.language_name is translated, not left in English (it labels the build's
    progress lines)."""
    names = {lang: load_locale(lang).name for lang in available_languages()}
    assert len(set(names.values())) == len(names), names
    assert all(name != lang for lang, name in names.items())


def test_all_catalogues_present_are_clean() -> None:
    assert check_all_locales() == []


def _with_translation(tmp_path: Path, fixture: str) -> Path:
    shutil.copy(LOCALES_DIR / "en.yaml", tmp_path / "en.yaml")
    shutil.copy(DATA / fixture, tmp_path / "xx.yaml")
    return tmp_path / "xx.yaml"


def test_mistakes_in_a_translation_are_each_reported(tmp_path: Path) -> None:
    bad = _with_translation(tmp_path, "missing_extra_placeholder.yaml")
    messages = [str(d) for d in check_all_locales(tmp_path)]
    assert f"{bad}:8:17: error: 'meta.figure_label' lacks placeholder {{number}}" in messages
    assert f"{bad}:8:17: error: 'meta.figure_label' has unknown placeholder {{numero}}" \
        in messages
    assert f"{bad}:14:8: error: unknown key 'extra' (not in en.yaml)" in messages
    assert f"{bad}:16:10: error: 'figures.legal': a brace that is not a {{placeholder}}" \
        in messages
    reference = load_locale("en", tmp_path)
    line = reference.marks["goal.text"][0]
    assert f"{bad}: error: missing key 'goal.text' (en.yaml line {line})" in messages
    # One message per missing key (everything but the 11 English keys the fixture has).
    missing = [m for m in messages if "missing key" in m]
    assert len(missing) == len(reference.texts) - 11


def test_a_missing_language_is_a_clear_error() -> None:
    with pytest.raises(UserError) as caught:
        load_locales(["en", "xx"])
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.file == str(LOCALES_DIR / "xx.yaml")
    assert diagnostic.message.startswith("no rulebook text for language 'xx' (available: en")


def test_a_text_that_is_not_text_is_reported(tmp_path: Path) -> None:
    (tmp_path / "en.yaml").write_text("meta:\n  title: [a, b]\n  subject: ''\n",
                                      encoding="utf-8")
    with pytest.raises(UserError) as caught:
        load_locale("en", tmp_path)
    assert [str(d) for d in caught.value.diagnostics] == [
        f"{tmp_path / 'en.yaml'}:2:10: error: 'meta.title' must be a non-empty text",
        f"{tmp_path / 'en.yaml'}:3:12: error: 'meta.subject' must be a non-empty text",
    ]


def test_fill_replaces_each_placeholder() -> None:
    assert fill("takes {drawn} tiles, {drawn} in all", {"drawn": 3}) == "takes 3 tiles, 3 in all"
    assert placeholders("page {page} of {pages}") == {"page", "pages"}
