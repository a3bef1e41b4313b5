"""Builds fives with its rules engine and the bots' search compiled by mypyc where it can.

The compiled modules (``fives.compiled.COMPILED_MODULES``) become extension modules installed
beside their Python sources, with ``fives._compiled_sources`` recording what they were compiled
from. Without mypyc or a C compiler, or with ``FIVES_PURE=1``, the same package installs pure:
every module runs as Python. Metadata lives in pyproject.toml.
"""

from __future__ import annotations

import ast
import hashlib
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"


def _warn(text: str) -> None:
    print(f"fives: {text}; installing the pure Python modules", file=sys.stderr)


def _compiled_list() -> tuple[list[str], str]:
    """The modules to compile and the manifest's name, as src/fives/compiled.py lists them."""
    tree = ast.parse((SRC / "fives" / "compiled.py").read_text(encoding="utf-8"))
    found: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value
    return list(ast.literal_eval(found["COMPILED_MODULES"])), ast.literal_eval(found["MANIFEST"])


def _write_manifest(modules: list[str], manifest: str, mypy_version: str) -> str:
    lines = [
        '"""Written by setup.py, compiled with the modules it names: the SHA-256 of the source',
        'each was compiled from (fives.compiled checks them before using the compiled core)."""',
        "",
        "from typing import Final",
        "",
        f"MYPY_VERSION: Final = {mypy_version!r}",
        "SOURCES: Final[dict[str, str]] = {",
    ]
    for module in modules:
        data = (SRC / Path(*module.split("."))).with_suffix(".py").read_bytes()
        lines.append(f"    {module!r}: {hashlib.sha256(data).hexdigest()!r},")
    lines.append("}")
    path = (SRC / Path(*manifest.split("."))).with_suffix(".py")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return os.path.relpath(path, HERE)


def _pure_requested() -> bool:
    return os.environ.get("FIVES_PURE", "") not in ("", "0")


def _extensions() -> list[Any]:
    """mypyc's extensions for the compiled modules, or none (and a warning) where it fails."""
    if _pure_requested():
        return []
    try:
        import mypy.version
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not installed")
        return []
    modules, manifest = _compiled_list()
    paths = [os.path.relpath(SRC / Path(*m.split(".")), HERE) + ".py" for m in modules]
    paths.append(_write_manifest(modules, manifest, mypy.version.__version__))
    options = [
        # mypyc adds a config section per compiled module, which hides pyproject's wildcard
        # section from mypy's unused-section check (a note mypyc counts as an error)
        "--no-warn-unused-configs",
        # the compiled modules are checked in full; what they import only as far as they use it
        "--follow-imports=silent",
    ]
    try:
        # One shared library (fives__mypyc) so calls between the modules stay native. The C
        # compiler's -O3 unless FIVES_OPT_LEVEL says otherwise (0 builds in half the time: the
        # packaging test, which proves what a wheel holds, not how fast it runs).
        level = os.environ.get("FIVES_OPT_LEVEL", "3")
        return mypycify(options + paths, opt_level=level, group_name="fives")
    except (Exception, SystemExit) as exc:  # mypyc exits when the sources do not type-check
        _warn(f"mypyc could not compile the core ({exc})")
        return []


class BuildExt(build_ext):
    """Runs mypyc when the extensions are built (an sdist or the metadata need none of it),
    and leaves the pure modules alone when mypyc or the C build fails."""

    def finalize_options(self) -> None:
        self.distribution.ext_modules = _extensions()
        super().finalize_options()

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, ExecError, PlatformError, OSError) as exc:
            self._remove_outputs()
            _warn(f"compiling the core failed ({type(exc).__name__}: {str(exc)[:120]})")

    def _remove_outputs(self) -> None:
        for ext in self.extensions:
            for path in (self.get_ext_fullpath(ext.name),
                         os.path.join(SRC, self.get_ext_filename(ext.name))):
                if os.path.exists(path):
                    os.remove(path)


# A stand-in until build_ext makes the real extensions: it marks the wheel as one for this
# platform (a pure build, FIVES_PURE=1, has none and makes a pure wheel).
setup(
    ext_modules=[] if _pure_requested() else [Extension("fives__mypyc", sources=[])],
    cmdclass={"build_ext": BuildExt},
)
