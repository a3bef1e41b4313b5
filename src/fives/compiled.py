"""The compiled core: which modules mypyc builds, and the guard that never lets a stale one run.

Where a C compiler is present, ``setup.py`` compiles the modules of :data:`COMPILED_MODULES`
with mypyc into extension modules that sit beside their ``.py`` sources. Python imports such an
extension in preference to the source beside it, even after the source has changed: the trap
of compiled editable installs. So the build also compiles ``fives._compiled_sources``, holding
the SHA-256 of every source it compiled, and the first import of ``fives`` calls
:func:`install` here, which compares those digests with the sources on disk.

The compiled modules are used all together or not at all (compiled code relies on the layout
of the compiled classes it imports). They are not used when ``FIVES_PURE=1`` is set, when they
were never built, or when any source differs from what was compiled; an import hook then loads
the pure ``.py`` modules, and a stale build says so in one line on standard error.

``setup.py`` reads the list here before the package is built, and the Makefile runs this file
as a script for the compiled sources' paths: it imports nothing from ``fives`` at the top.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

__all__ = ["COMPILED_MODULES", "CoreBuild", "MANIFEST", "build", "install", "source_digest"]

#: The modules mypyc compiles: the whole rules engine, the bots' search and the engine
#: benchmark's loop (what profiles of play, search and ``fives bench engine`` show hot).
COMPILED_MODULES: tuple[str, ...] = (
    "fives.core.errors",
    "fives.core.tiles",
    "fives.core.games",
    "fives.core.pickling",
    "fives.core.layout",
    "fives.core.outcome",
    "fives.core.history",
    "fives.core.state",
    "fives.core.view",
    "fives.core.sampling",
    "fives.core.account",
    "fives.core.record",
    "fives.core.render",
    "fives.bots.search",
    "fives.bench_engine",
)

#: The module the build writes and compiles with them: ``SOURCES`` maps each compiled module
#: to the SHA-256 of the source it was compiled from.
MANIFEST = "fives._compiled_sources"

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def source_path(module: str, root: str = _ROOT) -> str:
    """The ``.py`` file of ``module`` under ``root`` (the folder that holds ``fives``)."""
    return os.path.join(root, *module.split(".")) + ".py"


def source_digest(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def _extension_path(module: str) -> str | None:
    base = os.path.join(_ROOT, *module.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if os.path.exists(base + suffix):
            return base + suffix
    return None


@dataclass(frozen=True)
class CoreBuild:
    """Whether this process runs the compiled modules, and if not, why (``reason``)."""

    compiled: bool
    reason: str  # "compiled", "requested" (FIVES_PURE=1), "not-built" or "stale"
    detail: str = ""  # for "stale": the first source that differs from its build
    compiler: str = ""  # for "compiled": the mypy version that compiled the modules


def _decide() -> CoreBuild:
    if os.environ.get("FIVES_PURE", "") not in ("", "0"):
        return CoreBuild(False, "requested")
    manifest_path = _extension_path(MANIFEST)
    if manifest_path is None:
        return CoreBuild(False, "not-built")
    manifest = _load_extension(MANIFEST, manifest_path)
    sources: dict[str, str] = getattr(manifest, "SOURCES", {})
    if set(sources) != set(COMPILED_MODULES):
        return CoreBuild(False, "stale", "the list of compiled modules")
    for module in COMPILED_MODULES:
        path = source_path(module)
        if _extension_path(module) is None:
            return CoreBuild(False, "not-built")
        if not os.path.exists(path) or source_digest(path) != sources[module]:
            return CoreBuild(False, "stale", os.path.relpath(path, os.path.dirname(_ROOT)))
    return CoreBuild(True, "compiled", compiler=str(getattr(manifest, "MYPY_VERSION", "")))


def _load_extension(name: str, path: str) -> ModuleType:
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    sys.modules[name] = module
    return module


class _PureFinder:
    """Finds the compiled modules' ``.py`` sources first, so their extensions are not used."""

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(name, source_path(name))


_build: CoreBuild | None = None


def install() -> CoreBuild:
    """Decide once per process whether the compiled modules are used; if not, make sure the
    pure ones are imported instead. Called by ``fives/__init__.py`` before anything else."""
    global _build
    if _build is not None:
        return _build
    _build = _decide()
    if not _build.compiled:
        loaded = [m for m in COMPILED_MODULES if m in sys.modules]
        assert not loaded, f"imported before the build was checked: {loaded}"
        sys.meta_path.insert(0, _PureFinder())
        if _build.reason == "stale":
            from fives.i18n import default_language, t

            print(t("cli.build.stale", default_language(), file=_build.detail), file=sys.stderr)
    return _build


def build() -> CoreBuild:
    """How this process runs the core (see :func:`install`)."""
    return install()


if __name__ == "__main__":
    print(" ".join(os.path.relpath(source_path(m)) for m in COMPILED_MODULES))
