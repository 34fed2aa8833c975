from __future__ import annotations

from pathlib import Path

import pytest

from micropul_print.base.errors import Severity, UserError
from micropul_print.draw.theme import (
    DEFAULT_THEME,
    THEME_NAMES,
    THEMES_DIR,
    load_theme,
    read_theme,
)

CLASSIC = (THEMES_DIR / "classic.yaml").read_text(encoding="utf-8")


def write(tmp_path: Path, text: str, name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def messages(path: Path) -> list[str]:
    _theme, diagnostics = read_theme(path)
    return [str(d).replace(str(path), "FILE") for d in diagnostics]


def test_builtin_names_match_the_files() -> None:
    assert DEFAULT_THEME in THEME_NAMES
    assert {p.stem for p in THEMES_DIR.glob("*.yaml")} == set(THEME_NAMES)


@pytest.mark.parametrize("name", THEME_NAMES)
def test_builtin_theme_loads_cleanly(name: str) -> None:
    theme, diagnostics = read_theme(THEMES_DIR / f"{name}.yaml")
    assert diagnostics == []
    assert theme is not None and theme.name == name and theme.description


def test_builtin_themes_offer_the_same_marks() -> None:
    marks = {name: set(load_theme(name).marks) for name in THEME_NAMES}
    assert all(m == marks[DEFAULT_THEME] for m in marks.values())


def test_a_theme_file_path_loads(tmp_path: Path) -> None:
    path = write(tmp_path, CLASSIC.replace("name: classic", "name: mine"))
    theme = load_theme(str(path))
    assert theme.name == "mine"
    assert theme.marks == load_theme("classic").marks


def test_colours_are_normalised_to_lower_case(tmp_path: Path) -> None:
    path = write(tmp_path, CLASSIC.replace('background: "#ffffff"', 'background: "#FFFFFF"'))
    assert load_theme(str(path)).background == "#ffffff"


def test_unknown_theme_name_is_a_user_error() -> None:
    with pytest.raises(UserError) as caught:
        load_theme("neon")
    (diagnostic,) = caught.value.diagnostics
    assert str(diagnostic) == (
        "neon: error: no theme 'neon': give a built-in theme (classic, ink-saver, "
        "colour-safe) or the path of a theme .yaml file")


def test_missing_theme_file_is_a_user_error(tmp_path: Path) -> None:
    path = tmp_path / "absent.yaml"
    with pytest.raises(UserError) as caught:
        load_theme(str(path))
    assert [str(d) for d in caught.value.diagnostics] == [f"{path}: error: file not found"]


def test_every_problem_is_reported_at_its_line(tmp_path: Path) -> None:
    text = CLASSIC.replace('outline: "#000000"', 'outline: "black"').replace(
        "  size: 1.9\n", "  size: tiny\n", 1).replace(
        "dot1: {shape: dots,", "dot1: {shape: blob,")
    path = write(tmp_path, text)
    lines = text.splitlines()
    outline_line = next(i for i, line in enumerate(lines, 1) if 'outline: "black"' in line)
    size_line = next(i for i, line in enumerate(lines, 1) if "size: tiny" in line)
    dot_line = next(i for i, line in enumerate(lines, 1) if "shape: blob" in line)
    assert messages(path) == [
        f'FILE:{outline_line}:12: error: face.outline must be a colour like "#1a2b3c" '
        "or null for no paint; got 'black'",
        f"FILE:{size_line}:9: error: number.size must be a length in millimetres; got 'tiny'",
        f"FILE:{dot_line}:17: error: marks.dot1.shape must be one of none, disc, square, "
        "dots, cross; got 'blob'",
    ]
    with pytest.raises(UserError) as caught:
        load_theme(str(path))
    assert len(caught.value.diagnostics) == 3


def test_unknown_key_is_a_warning_only(tmp_path: Path) -> None:
    path = write(tmp_path, CLASSIC.replace("  outline_width: 0.2\n",
                                           "  outline_width: 0.2\n  glow: 3\n"))
    theme, diagnostics = read_theme(path)
    assert theme is not None
    (warning,) = diagnostics
    assert warning.severity is Severity.WARNING
    assert load_theme(str(path)).name == "classic"
    with pytest.raises(UserError) as caught:
        load_theme(str(path), strict=True)
    assert caught.value.diagnostics == (warning,)
    assert str(warning).endswith(":10:3: warning: unknown key 'glow' in face (expected "
                                 "background, outline or outline_width)")


def test_missing_section_is_reported_at_the_root(tmp_path: Path) -> None:
    text = CLASSIC.split("\nlabel:")[0] + "\n"  # drops label and marks
    path = write(tmp_path, text)
    assert messages(path) == [
        "FILE:3:1: error: theme is missing the required key 'label'",
        "FILE:3:1: error: theme is missing the required key 'marks'",
    ]


def test_inconsistent_mark_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, CLASSIC.replace("gap: 4.2,", "gap: 1.0,"))
    (message,) = messages(path)
    assert message.endswith("error: marks.dot2: dots need a gap (centre to centre) at least "
                            "as large as their size")


def test_yaml_syntax_error_has_a_position(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nface: [unclosed\n")
    (message,) = messages(path)
    assert message.startswith("FILE:3:1: error: invalid YAML:")


@pytest.mark.parametrize(("text", "expected"), [
    ("", "FILE: error: file is empty (no YAML content)"),
    ("- a list\n", "FILE:1:1: error: theme must be a mapping of keys, got a list"),
])
def test_wrong_shapes_of_file(tmp_path: Path, text: str, expected: str) -> None:
    assert messages(write(tmp_path, text)) == [expected]


def test_not_utf8_is_reported_at_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"name: caf\xe9\n")
    (message,) = messages(path)
    assert message.startswith("FILE:1:10: error: file is not valid UTF-8")


def test_python_tags_are_never_constructed(tmp_path: Path) -> None:
    path = write(tmp_path, CLASSIC.replace(
        "name: classic", "name: !!python/object/apply:os.system ['echo hacked']"))
    theme, _diagnostics = read_theme(path)
    # compose never constructs: the tagged node is a sequence, so "name" is rejected.
    assert theme is None


def test_duplicate_mark_is_an_error_at_the_second(tmp_path: Path) -> None:
    text = CLASSIC.replace("  blank: {shape: none}\n",
                           "  blank: {shape: none}\n  blank: {shape: disc}\n")
    path = write(tmp_path, text)
    line = text.splitlines().index("  blank: {shape: disc}") + 1
    theme, diagnostics = read_theme(path)
    assert theme is None
    assert [(d.line, d.col) for d in diagnostics] == [(line, 3)]
    assert "duplicate key 'blank'" in diagnostics[0].message


def test_oversized_theme_is_refused_before_reading(tmp_path: Path) -> None:
    path = write(tmp_path, CLASSIC + "#" * 300_000 + "\n")
    (message,) = messages(path)
    assert message.startswith("FILE: error: file is too large")


def test_every_theme_setting_is_documented() -> None:
    from dataclasses import fields

    from micropul_print.draw.theme import Hatch, MarkStyle, PlateStyle, Ring, TextStyle

    docs = (Path(__file__).resolve().parents[2] / "docs" / "themes.md").read_text("utf-8")
    for name in THEME_NAMES:
        assert f"`{name}`" in docs, name
    for kind in (MarkStyle, TextStyle):
        for f in fields(kind):
            assert f"`{f.name}`" in docs or f"{f.name}:" in docs, f"{kind.__name__}.{f.name}"
    for part in (Hatch, Ring, PlateStyle):
        for f in fields(part):
            assert f.name in docs, f"{part.__name__}.{f.name}"
    for mark in load_theme(DEFAULT_THEME).marks:
        assert f"`{mark}`" in docs, mark


# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
}


def linear_rgb(colour: str) -> tuple[float, ...]:
    def one(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return tuple(one(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))


def seen_luminance(colour: str, vision: str) -> float:
    rgb = linear_rgb(colour)
    seen = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True))))
            for row in CVD[vision]]
    return 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2]


@pytest.mark.parametrize("name", ["classic", "colour-safe"])
@pytest.mark.parametrize("vision", sorted(CVD))
def test_micropul_colours_stay_apart_for_every_eye_and_in_grey(name: str, vision: str) -> None:
    """WCAG contrast ratio of the two micropul fills, as simulated for each colour-vision
    deficiency: at least 3 (large-object contrast), so they also differ in greyscale."""
    theme = load_theme(name)
    light, dark = theme.mark("disc-light").fill, theme.mark("disc-dark").fill
    assert light is not None and dark is not None
    high, low = sorted((seen_luminance(light, vision), seen_luminance(dark, vision)),
                       reverse=True)
    assert (high + 0.05) / (low + 0.05) >= 3.0


def test_colour_safe_keeps_a_shape_cue_besides_colour() -> None:
    theme = load_theme("colour-safe")
    light, dark = theme.mark("disc-light"), theme.mark("disc-dark")
    assert (light.stroke, light.ring) != (dark.stroke, dark.ring)
    assert dark.ring is not None and light.ring is None


def test_ink_saver_has_no_solid_dark_areas() -> None:
    """Dark micropul and dark squares are hatched, never filled dark."""
    theme = load_theme("ink-saver")
    for name in ("disc-dark", "square-dark", "stone-2"):
        style = theme.mark(name)
        assert style.fill == "#ffffff" and style.hatch is not None, name


def test_a_disc_margin_of_half_its_cell_is_refused_at_the_margin(tmp_path: Path) -> None:
    """A disc whose margin was half its cell or more drew nothing, silently; the build
    now stops at the margin's line:col with the bound stated."""
    from micropul_print.games.micropul.faces import theme_problems

    path = write(tmp_path, CLASSIC.replace(
        'disc-dark: {shape: disc, fill: "#000000", margin: 1.8,',
        'disc-dark: {shape: disc, fill: "#000000", margin: 7.5,'))
    theme, diagnostics = read_theme(path)
    assert theme is not None and not diagnostics
    assert [str(d).replace(str(path), "FILE") for d in theme_problems(theme)] == [
        "FILE:27:53: error: marks.disc-dark.margin: a disc's margin must be below half its "
        "cell, 7.5 mm (Micropul paints it in a cell 15 mm wide); got 7.5 mm, which leaves "
        "no disc to draw"]


def test_a_disc_margin_just_below_half_its_cell_is_taken(tmp_path: Path) -> None:
    from micropul_print.games.micropul.faces import theme_problems

    path = write(tmp_path, CLASSIC.replace(
        'disc-dark: {shape: disc, fill: "#000000", margin: 1.8,',
        'disc-dark: {shape: disc, fill: "#000000", margin: 7.4,'))
    theme, _ = read_theme(path)
    assert theme is not None and theme_problems(theme) == []


def test_a_back_emblem_may_have_a_margin_a_quadrant_could_not(tmp_path: Path) -> None:
    """The back is painted on the whole face: its bound is 15 mm, not a quadrant's 7.5."""
    from micropul_print.games.micropul.faces import theme_problems

    path = write(tmp_path, CLASSIC.replace("back-emblem: {shape: disc, margin: 7.0,",
                                           "back-emblem: {shape: disc, margin: 10.0,"))
    theme, _ = read_theme(path)
    assert theme is not None and "margin: 10.0" in path.read_text(encoding="utf-8")
    assert theme_problems(theme) == []


def test_a_cellulae_square_margin_that_leaves_nothing_is_refused_at_the_margin(
        tmp_path: Path) -> None:
    """A square drew nothing too, silently (Cellulae's faces are squares, as small on the
    board as a start square's 7 mm corner mark)."""
    from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
    from micropul_print.games.cellulae.faces import theme_problems

    path = write(tmp_path, CLASSIC.replace('square-light: {shape: square, fill: "#ffffff"}',
                                           'square-light: {shape: square, fill: "#ffffff", '
                                           'margin: 3.5}'))
    theme, diagnostics = read_theme(path)
    assert theme is not None and not diagnostics
    catalogue = load_catalogue(shipped_catalogue("cellulae"))
    assert [str(d).replace(str(path), "FILE")
            for d in theme_problems(catalogue, theme)] == [
        "FILE:31:58: error: marks.square-light.margin: a square's margin must be below "
        "half its cell, 3.5 mm (Cellulae paints it in a cell 7 mm wide); got 3.5 mm, which "
        "leaves no square to draw"]
