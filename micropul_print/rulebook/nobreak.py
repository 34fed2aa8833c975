"""Where a rulebook's lines never break, per language, read from ``nobreak.yaml``: the
space after a numeral, and after a language's listed words, becomes a no-break space
(a number stays with its noun, "con 49 tessere"; a Polish one-letter word with the
word after it)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

from micropul_print.base.errors import UserError, errors_in
from micropul_print.base.yamlsource import (
    check_keys,
    expect_bool,
    expect_mapping,
    expect_sequence,
    expect_text,
    read_yaml,
)

RULES = Path(__file__).with_name("nobreak.yaml")
# A numeral (digits, maybe grouped or with decimals: "1.000", "2,5") and the one
# space before the next word.
_NUMERAL = r"(?<![\w.,])\d+(?:[.,]\d+)*"


def read_rules(path: Path = RULES) -> dict[str, tuple[bool, tuple[str, ...]]]:
    """Per language (and ``default``): (numerals, words). Raises UserError listing
    every problem of the file."""
    root, problems = read_yaml(path)
    rules: dict[str, tuple[bool, tuple[str, ...]]] = {}
    mapping = expect_mapping(root, "the no-break rules", problems) if root else None
    for key, node in mapping.entries if mapping is not None else ():
        rule = expect_mapping(node, f"the rules of '{key.raw}'", problems)
        if rule is None:
            continue
        problems.extend(check_keys(rule, f"the rules of '{key.raw}'", [], ["numerals",
                                                                          "words"]))
        numerals_node, words_node = rule.get("numerals"), rule.get("words")
        numerals = bool(numerals_node is not None
                        and expect_bool(numerals_node, "'numerals'", problems))
        words: list[str] = []
        sequence = (expect_sequence(words_node, "'words'", problems)
                    if words_node is not None else None)
        for item in sequence.items if sequence is not None else ():
            word = expect_text(item, "a word", problems)
            if word is not None and not re.fullmatch(r"\w+", word):
                problems.append(item.diagnostic(f"'{word}' is not one word"))
            elif word is not None:
                words.append(word)
        rules[key.raw] = (numerals, tuple(words))
    if "default" not in rules and not problems and mapping is not None:
        problems.append(mapping.diagnostic("the no-break rules need a 'default' entry"))
    # The project's own file: a warning (an unknown key) is a mistake in it too.
    if errors_in(problems, strict=True):
        raise UserError(errors_in(problems, strict=True))
    return rules


@functools.cache
def no_break(lang: str) -> Callable[[str], str]:
    """``lang``'s rule: text -> the same text with the spaces where no line may
    break made no-break spaces."""
    rules = read_rules()
    numerals, words = rules.get(lang, rules["default"])
    patterns = ([_NUMERAL] if numerals else []) + [
        rf"(?<!\w)(?i:{re.escape(word)})" for word in words]
    if not patterns:
        return lambda text: text
    pattern = re.compile(rf"({'|'.join(patterns)}) (?=\w)")
    return lambda text: pattern.sub("\\1\u00a0", text)
