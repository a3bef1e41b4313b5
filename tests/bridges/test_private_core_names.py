"""Nothing outside the core reaches into the core's private names: no ``obj._name`` where
``_name`` is a private method or attribute of a core class (``State._begin`` and
``State._points`` were), and no import of a core module's private name. The bridges and the
bots go through public methods (``State.start_round``, ``Game.play_points``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "src" / "fives" / "core"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _core_private_names() -> tuple[set[str], set[str]]:
    """(private members of core classes, private module-level names of core modules)."""
    members: set[str] = set()
    module_names: set[str] = set()
    for path in CORE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.append(node.target.id)
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                names.append(node.name)
            module_names.update(n for n in names if _private(n))
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for node in ast.walk(cls):
                if isinstance(node, ast.FunctionDef) and _private(node.name):
                    members.add(node.name)
                elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                      and node.value.id == "self" and _private(node.attr)):
                    members.add(node.attr)
    return members, module_names


def test_the_core_has_private_names_to_guard() -> None:
    members, module_names = _core_private_names()
    assert {"_begin", "_points"} <= members
    assert "_norm" in module_names


def test_no_layer_reaches_into_the_cores_private_names() -> None:
    members, module_names = _core_private_names()
    found = []
    for path in sorted((ROOT / "src").rglob("*.py")) + sorted((ROOT / "bench").rglob("*.py")):
        if CORE in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if (isinstance(node, ast.Attribute) and node.attr in members | module_names
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                found.append(f"{where} {ast.unparse(node)}")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("fives.core"):
                found += [f"{where} import {a.name}" for a in node.names if _private(a.name)]
    assert found == []
