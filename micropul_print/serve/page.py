"""The page's HTML: a frame that the page's script (static/serve.js) fills from /state
and updates on every server-sent event. The only texts from the inputs in it, the set's
name and game, are escaped here; everything else the script sets as text."""

from __future__ import annotations

from html import escape


def page_html(set_name: str, game: str) -> str:
    title = escape(f"{set_name or game or 'kit'} — micropul-print serve")
    heading = escape(set_name or "the kit")
    game_text = escape(game)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/serve.css">
<script src="/assets/serve.js" defer></script>
</head>
<body>
<header>
<h1><span id="set-name">{heading}</span> <small id="game-name">{game_text}</small></h1>
<p id="status" role="status" aria-live="polite">connecting…</p>
<nav><a href="#tiles-section">Tiles</a> <a href="#problems-section">Problems</a>
<a href="#sheets-section">Sheets</a> <a href="#rules-section">Rulebook</a>
<a href="#lab-section">Lab</a></nav>
</header>
<main>
<section id="problems-section" aria-labelledby="problems-title">
<h2 id="problems-title">Problems <span id="problem-count"></span></h2>
<p id="stale" hidden>The inputs have errors: the page shows the last kit that built.</p>
<ul id="problems"></ul>
<details id="facts-box"><summary>What the check found</summary><pre id="facts"></pre></details>
</section>
<section id="tiles-section" aria-labelledby="tiles-title">
<h2 id="tiles-title">Tiles <span id="tile-count"></span></h2>
<div id="tiles" class="tiles"></div>
</section>
<section id="sheets-section" aria-labelledby="sheets-title">
<h2 id="sheets-title">Sheets and boards, as they print</h2>
<div id="sheets"></div>
</section>
<section id="rules-section" aria-labelledby="rules-title">
<h2 id="rules-title">Rulebook</h2>
<label>Language <select id="language"></select></label>
<div id="rules"></div>
</section>
<section id="lab-section" aria-labelledby="lab-title">
<h2 id="lab-title">Lab</h2>
<h3>Reports</h3><ul id="reports"></ul>
<h3>Game records</h3><ul id="records"></ul>
<div id="replay" hidden>
<h3 id="replay-title"></h3>
<label>Move <input id="replay-slider" type="range" min="0" max="0" value="0"></label>
<p id="replay-move" aria-live="polite"></p>
<ul id="replay-problems"></ul>
<img id="replay-picture" alt="the position after this move">
</div>
</section>
</main>
</body>
</html>
"""
