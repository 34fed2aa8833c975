"""No import circles in the package: every ``import`` statement of every module, at the
top, inside functions or under ``if TYPE_CHECKING:``, read with ast (nothing imported),
and no module reaches itself again. A package's import of its own submodules and a
submodule's implied import of its package are not counted: Python makes those."""

from __future__ import annotations

import ast
from pathlib import Path

import micropul_print

ROOT = Path(micropul_print.__file__).parent


def module_files() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = ("micropul_print", *path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports (each ``from X import y`` counted as
    X.y when that is a module, else as X)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    wanted: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            wanted += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            wanted += [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
    found = set()
    for target in wanted:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name and not name.startswith(f"{target}."):
            found.add(target)
    return found


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import one another (Tarjan's strongly connected
    components of more than one module), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_module_imports_one_that_imports_it_back() -> None:
    modules = module_files()
    edges = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert circles(edges) == []


def test_the_walk_finds_a_circle() -> None:
    # The check itself can fail: two modules importing each other are one group.
    assert circles({"a": {"b"}, "b": {"c", "a"}, "c": set()}) == [["a", "b"]]
    assert circles({"a": {"b"}, "b": set()}) == []
