"""The language catalogues: English (en.yaml) and a gettext catalogue per translation
(<lang>.po); every language present has exactly the English keys and placeholders,
nothing missing or stale; mistakes are reported at their file:line:col."""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from micropul_print.base.errors import UserError
from micropul_print.games.micropul.rulebook import MICROPUL
from micropul_print.rulebook import games_with_rulebooks, locales, rulebook_for
from micropul_print.rulebook.locales import (
    REFERENCE_LANGUAGE,
    SHIPPED_PLURAL_RULES,
    SHIPPED_WHOLE_NUMBER_CATEGORIES,
    Locale,
    available_languages,
    check_all_locales,
    check_locale,
    fill,
    language_files,
    load_locale,
    load_locales,
    placeholders,
    plural_categories,
    plural_rule,
    whole_number_categories,
)
from micropul_print.rulebook.po import PoEntry, format_catalogue

DATA = Path(__file__).parent / "data"
TRANSLATIONS = DATA / "translations"
LOCALES_DIR = MICROPUL.locales_dir
# Every translation of every book: the files present, so a new one is checked at once.
BOOK_LANGUAGES = [(game, lang) for game in games_with_rulebooks()
                  for lang in rulebook_for(game).languages()]


def test_languages_come_from_the_files_present_reference_first() -> None:
    langs = available_languages(LOCALES_DIR)
    assert langs[0] == REFERENCE_LANGUAGE
    assert sorted(langs) == sorted(["en", *(p.stem for p in LOCALES_DIR.glob("*.po"))])
    assert len(langs) > 1


@pytest.mark.parametrize("game, lang", BOOK_LANGUAGES)
def test_every_translation_of_every_book_is_complete_and_current(game: str, lang: str) -> None:
    folder = rulebook_for(game).locales_dir
    assert check_locale(load_locale(lang, folder), load_locale(REFERENCE_LANGUAGE, folder)) == []


@pytest.mark.parametrize("lang", available_languages(LOCALES_DIR))
def test_every_language_has_every_key_and_the_same_placeholders(lang: str) -> None:
    reference = load_locale(REFERENCE_LANGUAGE, LOCALES_DIR)
    locale = load_locale(lang, LOCALES_DIR)
    assert check_locale(locale, reference) == []
    assert locale.texts.keys() == reference.texts.keys()
    for key, text in reference.texts.items():
        assert placeholders(locale.texts[key]) == placeholders(text), key


def test_every_language_names_itself_differently() -> None:
    """meta.language_name is translated, not left in English (it labels the build's
    progress lines)."""
    names = {lang: load_locale(lang, LOCALES_DIR).name for lang in available_languages(LOCALES_DIR)}
    assert len(set(names.values())) == len(names), names
    assert all(name != lang for lang, name in names.items())


def test_all_catalogues_present_are_clean() -> None:
    assert check_all_locales(LOCALES_DIR) == []


def _with_translation(tmp_path: Path, fixture: str) -> Path:
    shutil.copy(LOCALES_DIR / "en.yaml", tmp_path / "en.yaml")
    shutil.copy(DATA / fixture, tmp_path / "xx.po")
    return tmp_path / "xx.po"


def test_mistakes_in_a_translation_are_each_reported(tmp_path: Path) -> None:
    bad = _with_translation(tmp_path, "missing_extra_placeholder.po")
    messages = [str(d) for d in check_all_locales(tmp_path)]
    assert f"{bad}:31:1: error: 'meta.figure_label' lacks placeholder {{number}}" in messages
    assert f"{bad}:31:1: error: 'meta.figure_label' has unknown placeholder {{numero}}" \
        in messages
    assert f"{bad}:57:1: error: unknown key 'extra' (not in en.yaml)" in messages
    assert f"{bad}:63:1: error: 'figures.legal': a brace that is not a {{placeholder}}" \
        in messages
    reference = load_locale("en", tmp_path)
    line = reference.marks["goal.text"][0]
    assert f"{bad}: error: missing key 'goal.text' (en.yaml line {line})" in messages
    # One message per missing key (everything but the 11 English keys the fixture has).
    missing = [m for m in messages if "missing key" in m]
    assert len(missing) == len(reference.texts) - 11


# Each fixture of data/translations/, read as the German of its en.yaml: the problems.
TRANSLATION_PROBLEMS = {
    "good": [],
    "letter_the_font_lacks": ["{po}:18:1: error: 'figures.group': the rulebooks' font, Lato, "
                              "has no 'ř' (U+0159): the PDF would leave it out (a language "
                              "written with it needs another font first)"],
    "bom_and_crlf": [],  # as some editors save it: read as good.po is
    "not_utf8": ["{po}:1:41: error: not a UTF-8 gettext catalogue: byte 0xe4 is not UTF-8 "
                 "(save the file as UTF-8)"],
    # UTF-8 bytes under a header naming Latin-1: read as Latin-1 they were garbled.
    "not_utf8_charset": ["{po}:5:28: error: not a UTF-8 gettext catalogue: its header says "
                         "charset=ISO-8859-1 (write charset=UTF-8 and save the file as "
                         "UTF-8)"],
    "missing_key": ["{po}: error: missing key 'figures.group' (en.yaml line 6)"],
    "empty_msgstr": ["{po}:18:1: error: 'figures.group' is not translated (empty msgstr; "
                     "en.yaml line 6)"],
    "stale": ["{po}:18:1: error: 'figures.group' is stale: its msgid is not the English text "
              "(en.yaml line 6), which has changed since it was translated"],
    "fuzzy": ["{po}:19:1: error: 'figures.group' is marked fuzzy: review the translation, "
              "then remove the flag"],
    "unknown_key": ["{po}:22:1: error: unknown key 'figures.gone' (not in en.yaml)"],
    "given_twice": ["{po}:22:1: error: 'figures.group' is given twice (first at line 18)"],
    # Babel merged the second into the first: its translation was dropped unseen.
    "given_twice_same_msgid": ["{po}:22:1: error: 'figures.group' is given twice (first "
                               "at line 18)"],
    "no_msgctxt": ["{po}:18:1: error: an entry without msgctxt: each text is named by its "
                   'key, e.g. msgctxt "placing.rule1"'],
    "plural_forms": ["{po}:23:1: error: gettext plural forms (msgid_plural) are not used: "
                     "write the plural inside the text, {{name, plural, one {{# ...}} "
                     "other {{# ...}}}}"],
    "not_a_catalogue": ['{po}:9:1: error: not a gettext catalogue line: expected a keyword '
                        'and a "quoted text", a "quoted text" continuing one, or a # comment'],
}


def test_every_translation_fixture_has_its_expected_problems() -> None:
    assert {p.stem for p in TRANSLATIONS.glob("*.po")} == set(TRANSLATION_PROBLEMS)


@pytest.mark.parametrize("failure", sorted(TRANSLATION_PROBLEMS))
def test_a_translation_problem_is_reported_at_its_entry(tmp_path: Path, failure: str) -> None:
    shutil.copy(TRANSLATIONS / "en.yaml", tmp_path / "en.yaml")
    shutil.copy(TRANSLATIONS / f"{failure}.po", tmp_path / "de.po")
    po = tmp_path / "de.po"
    assert [str(d) for d in check_all_locales(tmp_path)] == [
        message.format(po=po) for message in TRANSLATION_PROBLEMS[failure]]


@pytest.mark.parametrize(("char", "shown"), [("\0", "\\x00"), ("\t", "\\t"),
                                           ("\f", "\\x0c")])
def test_a_control_character_in_a_translation_is_refused(
        tmp_path: Path, char: str, shown: str) -> None:
    # Lato maps NUL to an empty glyph: it was let through to the PDF, a tab was not.
    shutil.copy(TRANSLATIONS / "en.yaml", tmp_path / "en.yaml")
    text = (TRANSLATIONS / "good.po").read_text(encoding="utf-8")
    po = tmp_path / "de.po"
    po.write_text(text.replace('"Eine geschlossene Gruppe."', f'"Eine{char}Gruppe."'),
                  encoding="utf-8")
    assert [str(d) for d in check_all_locales(tmp_path)] == [
        f"{po}:18:1: error: 'figures.group': the rulebooks' font, Lato, has no '{shown}' "
        f"(U+{ord(char):04X}): the PDF would leave it out (a language written with it "
        "needs another font first)"]


def test_a_translation_keeps_its_texts_sources_and_notes(tmp_path: Path) -> None:
    shutil.copy(TRANSLATIONS / "good.po", tmp_path / "de.po")
    shutil.copy(TRANSLATIONS / "en.yaml", tmp_path / "en.yaml")
    german = load_locale("de", tmp_path)
    assert german.texts["figures.group"] == "Eine geschlossene Gruppe."
    assert german.sources["figures.group"] == "A closed group."
    assert german.marks["figures.group"] == (18, 1)
    assert german.text("figures.catalysts", {"drawn": 1}) == "Zieht 1 Plättchen."
    assert german.fuzzy == frozenset()


def test_a_folder_of_ones_own_adds_and_replaces_languages(tmp_path: Path) -> None:
    shutil.copy(TRANSLATIONS / "good.po", tmp_path / "nl.po")
    shutil.copy(TRANSLATIONS / "good.po", tmp_path / "pl.po")
    (tmp_path / "en.po").write_text("", encoding="utf-8")  # English is no translation
    (tmp_path / "notes.po").write_text("", encoding="utf-8")  # nor a language code
    files = language_files(LOCALES_DIR, tmp_path)
    assert next(iter(files)) == "en" and files["en"] == LOCALES_DIR / "en.yaml"
    assert files["nl"] == tmp_path / "nl.po" and files["pl"] == tmp_path / "pl.po"
    assert files["it"] == LOCALES_DIR / "it.po"
    assert "notes" not in files
    assert available_languages(LOCALES_DIR, tmp_path) == sorted(
        {*available_languages(LOCALES_DIR), "nl"}, key=lambda code: (code != "en", code))


def test_a_missing_language_is_a_clear_error() -> None:
    with pytest.raises(UserError) as caught:
        load_locales(["en", "xx"], LOCALES_DIR)
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.file == str(LOCALES_DIR / "xx.po")
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
    assert fill("takes {drawn} tiles, {drawn} in all", {"drawn": 3}, "en") == \
        "takes 3 tiles, 3 in all"
    assert placeholders("page {page} of {pages}") == {"page", "pages"}


TILES = {
    "en": "{n, plural, one {# tile} other {# tiles}}",
    "it": "{n, plural, one {# tessera} other {# tessere}}",
    "es": "{n, plural, one {# ficha} other {# fichas}}",
    "pl": "{n, plural, one {# żeton} few {# żetony} many {# żetonów}}",
}
# Polish: one is 1 only; few ends in 2-4 but not 12-14; many is every other whole number.
EXPECTED = {
    "en": {0: "0 tiles", 1: "1 tile", 2: "2 tiles", 5: "5 tiles", 12: "12 tiles",
           21: "21 tiles", 22: "22 tiles", 25: "25 tiles"},
    "it": {0: "0 tessere", 1: "1 tessera", 2: "2 tessere", 5: "5 tessere",
           12: "12 tessere", 21: "21 tessere", 22: "22 tessere", 25: "25 tessere"},
    "es": {0: "0 fichas", 1: "1 ficha", 2: "2 fichas", 5: "5 fichas", 12: "12 fichas",
           21: "21 fichas", 22: "22 fichas", 25: "25 fichas"},
    "pl": {0: "0 żetonów", 1: "1 żeton", 2: "2 żetony", 4: "4 żetony", 5: "5 żetonów",
           12: "12 żetonów", 14: "14 żetonów", 21: "21 żetonów", 22: "22 żetony",
           25: "25 żetonów", 102: "102 żetony", 112: "112 żetonów"},
}


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_plurals_follow_the_cldr_categories_of_the_language(lang: str) -> None:
    for n, expected in EXPECTED[lang].items():
        assert fill(f"takes {TILES[lang]}.", {"n": n}, lang) == f"takes {expected}.", n
    assert placeholders(TILES[lang]) == {"n"}


def test_the_categories_each_language_must_write() -> None:
    assert plural_categories("en")[0] == {"one", "other"}
    assert plural_categories("it")[0] == {"one", "other"}
    assert plural_categories("es")[0] == {"one", "other"}
    assert plural_categories("pl")[0] == {"one", "few", "many"}
    assert "many" in plural_categories("it")[1]  # exact millions: allowed, not required


@pytest.mark.parametrize("lang", available_languages(LOCALES_DIR))
def test_every_text_renders_with_any_number(lang: str) -> None:
    """Each text of each language filled with many values: a missing category, a plural
    that cannot be read or a stray brace would fail here."""
    locale = load_locale(lang, LOCALES_DIR)
    for n in (0, 1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 100, 101, 112, 1000000):
        for key, text in locale.texts.items():
            filled = fill(text, dict.fromkeys(placeholders(text), n), lang)
            assert not {"{", "}"} & set(filled), (key, n, filled)


def test_the_shipped_texts_use_plural_forms(tmp_path: Path) -> None:
    values = {"drawn": 1, "points": 22, "stones": 5, "options": 1, "tile_count": 48}
    assert load_locale("pl", LOCALES_DIR).text("figures.big", values).endswith(
        "bierze z\u00a0rdzenia 1\u00a0żeton.")
    assert "22\u00a0punkty" in load_locale("pl", LOCALES_DIR).text("figures.group", values)
    assert "5\u00a0kamieni" in load_locale("pl", LOCALES_DIR).text("figures.merged", values)
    assert "Vale 22 punti" in load_locale("it", LOCALES_DIR).text("figures.group", values)
    assert "roba 1\u00a0ficha" in load_locale("es", LOCALES_DIR).text("figures.big", values)
    assert "takes 1 tile." in load_locale("en", LOCALES_DIR).text("figures.big", values)


def _locale_with(tmp_path: Path, lang: str, text: str) -> list[str]:
    (tmp_path / "en.yaml").write_text("figures:\n  catalysts: Takes {drawn} tiles.\n",
                                      encoding="utf-8")
    entry = PoEntry("figures.catalysts", "Takes {drawn} tiles.", text)
    (tmp_path / f"{lang}.po").write_bytes(format_catalogue([entry], lang=lang, project="test"))
    return [str(d) for d in check_all_locales(tmp_path)]


def test_a_plural_without_every_category_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "pl.po"
    assert _locale_with(tmp_path, "pl", "Bierze {drawn, plural, one {# żeton} other "
                                        "{# żetonów}}.") == [
        f"{path}:11:1: error: 'figures.catalysts': the plural of {{drawn}} lacks the 'few' "
        "form (pl needs one, few, many)",
        f"{path}:11:1: error: 'figures.catalysts': the plural of {{drawn}} lacks the 'many' "
        "form (pl needs one, few, many)",
    ]


def test_a_category_the_language_does_not_have_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "it.po"
    assert _locale_with(tmp_path, "it", "Pesca {drawn, plural, one {# tessera} few "
                                        "{# tessere} other {# tessere}}.") == [
        f"{path}:11:1: error: 'figures.catalysts': the plural of {{drawn}} has a 'few' form, "
        "which is not a plural category of it (one, many, other)",
    ]


def test_a_plural_that_cannot_be_read_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "es.po"
    assert _locale_with(tmp_path, "es", "Roba {drawn, plural, one # ficha other "
                                        "{# fichas}}.") == [
        f"{path}:11:1: error: 'figures.catalysts': a plural that cannot be read (expected "
        "{name, plural, one {# ...} other {# ...}}, plain text in each branch)",
        f"{path}:11:1: error: 'figures.catalysts' lacks placeholder {{drawn}}",
    ]


def test_plurals_in_a_language_cldr_does_not_know_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "qx.po"
    assert _locale_with(tmp_path, "qx", "{drawn, plural, other {# x}}") == [
        f"{path}:11:1: error: 'figures.catalysts': no CLDR plural rules for language 'qx'",
    ]


@pytest.mark.parametrize("lang", sorted(SHIPPED_PLURAL_RULES))
def test_the_shipped_plural_rules_are_babels(lang: str) -> None:
    """The table a build reads instead of Babel's locale data says what Babel says
    (a Babel release with new CLDR data fails here: copy its rules into the table).
    Rules are compared by what they decide, not by their text: Babel 2.19 writes
    French's 'one' as "i in 0..1" where 2.18 wrote "i in 0,1"."""
    import babel
    from babel.plural import PluralRule

    babels = babel.Locale.parse(lang).plural_form
    shipped = PluralRule(SHIPPED_PLURAL_RULES[lang])
    assert shipped.tags == babels.tags
    numbers: list[int | Decimal] = [*range(1001), 10**6, 10**6 + 1, 10**7, 2 * 10**6]
    numbers += [Decimal(text) for text in (
        "0.0", "0.5", "1.0", "1.5", "2.0", "2.5", "5.0", "11.0", "21.1", "100.0", "1000000.0")]
    assert [shipped(n) for n in numbers] == [babels(n) for n in numbers]
    every_language = {lang for game in games_with_rulebooks()
                      for lang in rulebook_for(game).languages()}
    assert set(SHIPPED_PLURAL_RULES) == every_language
    assert SHIPPED_WHOLE_NUMBER_CATEGORIES[lang] == whole_number_categories(
        babel.Locale.parse(lang).plural_form)
    assert set(SHIPPED_WHOLE_NUMBER_CATEGORIES) == every_language


def test_a_language_outside_the_table_has_its_categories_found_by_its_rule() -> None:
    rule = plural_rule("ru")
    assert rule is not None
    assert "ru" not in SHIPPED_WHOLE_NUMBER_CATEGORIES
    assert plural_categories("ru")[0] == {"one", "few", "many"}


def test_languages_checked_once_are_not_read_again_until_a_file_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A build checks every language, then each rulebook job asks for its own again.
    shutil.copy(TRANSLATIONS / "good.po", tmp_path / "de.po")
    shutil.copy(TRANSLATIONS / "en.yaml", tmp_path / "en.yaml")
    first = load_locales(["de"], tmp_path)
    reads: list[str] = []
    real_load_locale = locales.load_locale

    def counting(lang: str, directory: Path, extra: Path | None = None) -> Locale:
        reads.append(lang)
        return real_load_locale(lang, directory, extra)

    monkeypatch.setattr(locales, "load_locale", counting)
    assert load_locales(["de"], tmp_path) == first and not reads
    # The same size, the same instant as far as the file system can tell: other bytes.
    po = tmp_path / "de.po"
    po.write_text(po.read_text(encoding="utf-8").replace(
        "Eine geschlossene Gruppe.", "Eine geschlossene Gruppa."), encoding="utf-8")
    again = load_locales(["de"], tmp_path)
    assert reads == ["en", "de"]
    assert again[0].texts["figures.group"] == "Eine geschlossene Gruppa."
    english = tmp_path / "en.yaml"  # the reference changed: every translation is checked
    english.write_text(english.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    load_locales(["de"], tmp_path)
    assert reads == ["en", "de", "en", "de"]


def test_a_text_longer_than_the_bound_is_refused_where_it_is_written(tmp_path: Path) -> None:
    """A single huge paragraph made layout time grow with the square of its length
    (100 KB: 29 s): refused before any work, at its entry, in the reference and in a
    translation."""
    from micropul_print.rulebook.locales import MAX_TEXT_CHARS

    long_text = "word " * (MAX_TEXT_CHARS // 5) + "end"
    (tmp_path / "en.yaml").write_text(f"intro: ok\nbody: {long_text}\n", encoding="utf-8")
    with pytest.raises(UserError) as raised:
        load_locale("en", tmp_path)
    assert [str(d) for d in raised.value.diagnostics] == [
        f"{tmp_path / 'en.yaml'}:2:7: error: 'body' is 4,003 characters long; a rulebook "
        "text holds at most 4,000 (about a booklet page)"]
    (tmp_path / "en.yaml").write_text("intro: ok\nbody: ok\n", encoding="utf-8")
    (tmp_path / "xx.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "intro"\nmsgid "ok"\nmsgstr "bene"\n\n'
        f'msgctxt "body"\nmsgid "ok"\nmsgstr "{"x" * 300_000}"\n', encoding="utf-8")
    with pytest.raises(UserError) as raised:
        load_locale("xx", tmp_path)
    assert [str(d) for d in raised.value.diagnostics] == [
        f"{tmp_path / 'xx.po'}:11:1: error: 'body' is 300,000 characters long; a rulebook "
        "text holds at most 4,000 (about a booklet page)"]
    assert load_locale("en", tmp_path).texts["body"] == "ok"


def test_a_word_longer_than_the_bound_is_refused_where_it_is_written(tmp_path: Path) -> None:
    """One word of 3,800 characters with 1,900 soft hyphens, within the text bound: a
    line may end at any of them, each tried longest first and measured anew (seconds
    per layout try). Refused at its entry; the same text as words of the bound's size
    is taken."""
    from micropul_print.rulebook.locales import MAX_TEXT_CHARS, MAX_WORD_CHARS

    (tmp_path / "en.yaml").write_text("intro: ok\nbody: ok\n", encoding="utf-8")
    dense = "a\u00ad" * 1_900
    assert len(dense) < MAX_TEXT_CHARS
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    (tmp_path / "xx.po").write_text(
        header + 'msgctxt "intro"\nmsgid "ok"\nmsgstr "bene"\n\n'
        f'msgctxt "body"\nmsgid "ok"\nmsgstr "Il {dense} fine"\n', encoding="utf-8")
    with pytest.raises(UserError) as raised:
        load_locale("xx", tmp_path)
    assert [str(d) for d in raised.value.diagnostics] == [
        f"{tmp_path / 'xx.po'}:11:1: error: 'body' holds a word of 3,800 characters "
        "('aaaaaa...'); a word in a rulebook text holds at most 80 (about a line of a "
        "booklet): put spaces between its words"]
    words = " ".join(["a\u00ad" * (MAX_WORD_CHARS // 2)] * 45)
    assert len(words) < MAX_TEXT_CHARS and words.count("\u00ad") == 1_800
    (tmp_path / "xx.po").write_text(
        header + 'msgctxt "intro"\nmsgid "ok"\nmsgstr "bene"\n\n'
        f'msgctxt "body"\nmsgid "ok"\nmsgstr "{words}"\n', encoding="utf-8")
    assert load_locale("xx", tmp_path).texts["body"] == words


@pytest.mark.parametrize("lang", sorted({lang for game in games_with_rulebooks()
                                         for lang in rulebook_for(game).languages()}
                                        - {REFERENCE_LANGUAGE}))
def test_a_label_both_books_share_in_english_is_translated_alike_in_both(lang: str) -> None:
    # Spanish named the ruling box "Aclaración" in Micropul, "Regla propia" in Cellulae.
    games = games_with_rulebooks()
    english = {game: load_locale(REFERENCE_LANGUAGE, rulebook_for(game).locales_dir)
               for game in games}
    translated = {game: load_locale(lang, rulebook_for(game).locales_dir) for game in games}
    differing: dict[str, list[str]] = {}
    for text in {value for value in english[games[0]].texts.values() if len(value) <= 40}:
        forms = {translated[game].texts[key] for game in games
                 for key, value in english[game].texts.items()
                 if value == text and key in translated[game].texts}
        if len({game for game in games if text in english[game].texts.values()}) > 1 \
                and len(forms) > 1:
            differing[text] = sorted(forms)
    assert differing == {}
