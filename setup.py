"""Builds fives with its rules engine and the bots' search compiled by mypyc where it can.

The compiled modules (``fives.compiled.COMPILED_MODULES``) become extension modules installed
beside their Python sources, with ``fives._compiled_sources`` recording what they were compiled
from. Without mypyc or a C compiler, or with ``FIVES_PURE=1``, the same package installs pure:
every module runs as Python. Metadata lives in pyproject.toml.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"


def _warn(text: str) -> None:
    print(f"fives: {text}; installing the pure Python modules", file=sys.stderr)


def _assigned(path: Path) -> dict[str, Any]:
    """The top-level assignments of a Python file, by name, as expressions (read, not run)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value
    return found


def _compiled_list() -> tuple[list[str], str]:
    """The modules to compile and the manifest's name, as src/fives/compiled.py lists them."""
    found = _assigned(SRC / "fives" / "compiled.py")
    return list(ast.literal_eval(found["COMPILED_MODULES"])), ast.literal_eval(found["MANIFEST"])


def _source_digest(module: str) -> str:
    """The SHA-256 of a compiled module's source here, as the manifest records it."""
    data = (SRC / Path(*module.split("."))).with_suffix(".py").read_bytes()
    return hashlib.sha256(data).hexdigest()


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
        lines.append(f"    {module!r}: {_source_digest(module)!r},")
    lines.append("}")
    path = (SRC / Path(*manifest.split("."))).with_suffix(".py")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return os.path.relpath(path, HERE)


def _pure_requested() -> bool:
    return os.environ.get("FIVES_PURE", "") not in ("", "0")


def _reused_build() -> dict[str, Path] | None:
    """``FIVES_REUSE_BUILD=DIR``: the files of a build made in place in DIR (the ``src`` folder
    of a checkout after ``make venv``), each extension's by its name, and the manifest's source
    under ``"source"``, copied into this build instead of compiling again (the packaging test's
    wheel); None when not asked. Refused unless that build was compiled from exactly the sources
    built here (the manifest's digests), so a wheel never ships extensions of other sources."""
    where = os.environ.get("FIVES_REUSE_BUILD", "")
    if not where:
        return None
    modules, manifest = _compiled_list()
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    files = {name: Path(where, *name.split(".")).with_suffix(suffix)
             for name in ("fives__mypyc", *modules, manifest)}
    files["source"] = Path(where, *manifest.split(".")).with_suffix(".py")
    missing = [str(path) for path in files.values() if not path.exists()]
    if missing:
        raise SystemExit(f"fives: FIVES_REUSE_BUILD: no build in place ({missing[0]} is missing)")
    sources = ast.literal_eval(_assigned(files["source"])["SOURCES"])
    for module in modules:
        if sources.get(module) != _source_digest(module):
            raise SystemExit(f"fives: FIVES_REUSE_BUILD: the build in place is not of this {module}")
    return files


def _compiler_runs() -> bool:
    """Whether the C compiler extensions are built with compiles a line of C here. Asked before
    mypyc, whose type check and code generation take a minute before the compiler first runs."""
    import distutils.ccompiler  # setuptools' copy, as build_ext's
    import distutils.sysconfig

    compiler = distutils.ccompiler.new_compiler()
    distutils.sysconfig.customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp, "probe.c")
        probe.write_text("int fives_probe(void) { return 0; }\n", encoding="utf-8")
        try:
            compiler.compile([str(probe)], output_dir=tmp)
        except (CCompilerError, ExecError, PlatformError, OSError) as exc:
            _warn(f"no C compiler runs here ({type(exc).__name__}: {str(exc)[:120]})")
            return False
    return True


def _extensions(reused: dict[str, Path] | None) -> list[Any]:
    """mypyc's extensions for the compiled modules (stand-ins for the ``reused`` build's files),
    or none (and a warning) where it fails."""
    if _pure_requested():
        return []
    if reused is not None:
        return [Extension(name, sources=[]) for name in reused if name != "source"]
    try:
        import mypy.version
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not installed")
        return []
    if not _compiler_runs():
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
        self.reused = None if _pure_requested() else _reused_build()
        self.distribution.ext_modules = _extensions(self.reused)
        super().finalize_options()

    def run(self) -> None:
        if self.reused is not None:
            for ext in self.extensions:
                target = Path(self.get_ext_fullpath(ext.name))
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(self.reused[ext.name], target)
            # the manifest's source too, as a compiled build ships it
            manifest = Path(self.get_ext_fullpath(_compiled_list()[1]))
            shutil.copyfile(self.reused["source"], manifest.with_name(self.reused["source"].name))
            return
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
