"""The compiled core (mypyc) and its pure fallback: which one runs, that a stale build never
runs, and that both decide everything identically.

Tests that need a compiled build skip where there is none (a machine without a C compiler);
``make test`` sets FIVES_EXPECT_COMPILED=1, so there they fail instead: CI always compiles.
"""

from __future__ import annotations

import copy
import copyreg
import dataclasses
import importlib
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
import tarfile
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

import fives
from examplekit import example_records, needs_examples
from fives.bench_engine import all_configs, measure
from fives.compiled import COMPILED_MODULES, MANIFEST, build
from fives.core.games import Config
from fives.core.state import State
from fives.core.tiles import Action
from fives.core.view import view_of

HERE = Path(__file__).parent
PACKAGE = Path(fives.__file__).parent
#: a few thousand random matches, and decisions of every bot on views of four games
RECORDS = 2400
DECISIONS_PER_GAME = 4


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FIVES_PURE", "PYTHONPATH")}
    env.update(extra)
    return env


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=_env(**env), check=False
    )


def _compiled_here() -> bool:
    """Whether this checkout has a current compiled build (asked of a process without
    FIVES_PURE, whatever this one runs)."""
    proc = _python("from fives.compiled import build; print(build().compiled)")
    return proc.stdout.strip() == "True"


def _require_compiled() -> None:
    if _compiled_here():
        return
    if os.environ.get("FIVES_EXPECT_COMPILED") == "1":
        pytest.fail("make test expects the compiled core, but it is not built (see make venv)")
    pytest.skip("no compiled core on this machine")


_FILES = (
    "import importlib, fives.compiled as c\n"
    "for m in c.COMPILED_MODULES: print(importlib.import_module(m).__file__)\n"
    "print(c.build().reason)\n"
)


def test_make_test_runs_the_compiled_core() -> None:
    if os.environ.get("FIVES_EXPECT_COMPILED") != "1":
        pytest.skip("only make test's compiled run expects the compiled core")
    assert build().compiled
    for name in COMPILED_MODULES:
        path = importlib.import_module(name).__file__
        assert path is not None and not path.endswith(".py"), name


def test_fives_pure_runs_every_compiled_module_from_its_source() -> None:
    proc = _python(_FILES, FIVES_PURE="1")
    *files, reason = proc.stdout.split()
    assert reason == "requested"
    assert files == [str(PACKAGE.parent / (m.replace(".", "/") + ".py")) for m in COMPILED_MODULES]
    assert proc.stderr == ""


def test_the_compiled_build_runs_every_compiled_module_from_its_extension() -> None:
    _require_compiled()
    proc = _python(_FILES)
    *files, reason = proc.stdout.split()
    assert reason == "compiled"
    assert all(Path(f).name.split(".")[1].startswith("cpython-") for f in files), files
    assert proc.stderr == ""


def test_fives_version_says_whether_the_core_is_compiled() -> None:
    fives_cmd = [sys.executable, "-m", "fives.cli.main", "--version"]
    pure = subprocess.run(fives_cmd, capture_output=True, text=True,
                          env=_env(FIVES_PURE="1", LANG="C.UTF-8"), check=False)
    assert (pure.returncode, pure.stdout) == (0, f"fives {fives.__version__}: pure Python core (FIVES_PURE=1)\n")
    _require_compiled()
    compiled = subprocess.run(fives_cmd, capture_output=True, text=True,
                              env=_env(LANG="C.UTF-8"), check=False)
    assert compiled.returncode == 0
    assert compiled.stdout.startswith(f"fives {fives.__version__}: compiled core (mypyc ")


def _copy_package(dest: Path) -> Path:
    """A copy of the installed package with its compiled files: another install to spoil."""
    shutil.copytree(PACKAGE, dest / "fives", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in PACKAGE.parent.glob("fives__mypyc.*"):
        shutil.copy2(shared, dest / shared.name)
    return dest


def test_a_compiled_module_whose_source_changed_is_never_imported(tmp_path: Path) -> None:
    _require_compiled()
    root = _copy_package(tmp_path)
    fresh = _python(_FILES, PYTHONPATH=str(root))
    assert fresh.stdout.split()[-1] == "compiled"
    # an edit after the build: the extension beside render.py no longer matches its source
    source = root / "fives" / "core" / "render.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    stale = _python(_FILES, PYTHONPATH=str(root), LANG="C.UTF-8")
    *files, reason = stale.stdout.split()
    assert reason == "stale"
    # all or nothing: every compiled module falls back to its source, not only the edited one
    assert files == [str(root / (m.replace(".", "/") + ".py")) for m in COMPILED_MODULES]
    assert stale.stderr == (
        f"fives: {tmp_path.name}/fives/core/render.py changed since the core was compiled; "
        "running the pure Python modules (make venv compiles them again)\n"
    )


def test_a_build_without_its_manifest_counts_as_not_built(tmp_path: Path) -> None:
    _require_compiled()
    root = _copy_package(tmp_path)
    for manifest in (root / "fives").glob(MANIFEST.split(".")[-1] + ".*"):
        manifest.unlink()
    proc = _python(_FILES, PYTHONPATH=str(root))
    *files, reason = proc.stdout.split()
    assert reason == "not-built"
    assert all(f.endswith(".py") for f in files)


def test_compiled_and_pure_builds_replay_records_and_decide_identically() -> None:
    _require_compiled()
    script = [sys.executable, str(HERE / "results_digest.py"), str(RECORDS), str(DECISIONS_PER_GAME)]
    runs = {}
    for name, env in (("compiled", _env()), ("pure", _env(FIVES_PURE="1"))):
        proc = subprocess.run(script, capture_output=True, text=True, env=env, check=True)
        runs[name] = proc.stdout.splitlines()
    compiled, pure = runs["compiled"], runs["pure"]
    assert (compiled[-1], pure[-1]) == ("build compiled", "build requested")
    assert sum(line.startswith("record ") for line in compiled) == RECORDS
    assert sum(line.startswith("decision ") for line in compiled) >= 4 * DECISIONS_PER_GAME * 5
    differ = [(c, p) for c, p in zip(compiled[:-1], pure[:-1]) if c != p]
    assert not differ, f"{len(differ)} items differ, first: {differ[0]}"
    assert len(compiled) == len(pure)


@needs_examples
def test_compiled_and_pure_builds_replay_the_shared_examples_identically() -> None:
    # RECORD.md's contract is `fives replay`: its JSON report, the English account and the
    # Hindi account with the layout drawn, each for every example record, on both builds
    _require_compiled()
    paths = [str(p) for p in example_records()]
    for options in (["--json"], [], ["--layout", "--lang", "hi"]):
        outputs = {}
        for name, env in (("compiled", _env()), ("pure", _env(FIVES_PURE="1"))):
            proc = subprocess.run(
                [sys.executable, "-m", "fives.cli.main", "replay", *options, *paths],
                capture_output=True, text=True, env=env, check=False,
            )
            assert (proc.returncode, proc.stderr) == (0, ""), (name, options)
            outputs[name] = proc.stdout
        if options == ["--json"]:
            assert len(outputs["compiled"].splitlines()) == len(paths)
        assert outputs["compiled"] == outputs["pure"], options


def test_every_core_module_is_compiled() -> None:
    core = sorted(f"fives.core.{p.stem}" for p in (PACKAGE / "core").glob("*.py")
                  if p.stem != "__init__")
    assert [m for m in core if m not in COMPILED_MODULES] == []


def test_every_frozen_dataclass_of_a_compiled_module_pickles_by_its_constructor() -> None:
    # compiled, a frozen dataclass cannot be unpickled attribute by attribute (mypyc sets them,
    # the class refuses): each must be registered with fives.core.pickling
    missing = []
    for name in COMPILED_MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (isinstance(value, type) and value.__module__ == name
                    and dataclasses.is_dataclass(value)
                    and value.__dataclass_params__.frozen  # type: ignore[attr-defined]
                    and value not in copyreg.dispatch_table):
                missing.append(f"{name}.{value.__name__}")
    assert missing == []


def test_a_view_with_past_rounds_and_its_state_survive_pickling_and_deep_copies() -> None:
    # what tournaments send between processes: a configuration, views, records
    state = State(Config.make("all-fives", 3))
    rng = random.Random(5)
    while len(state.finished) < 2:
        if state.needs_deal():
            state.deal_next(rng)
        else:
            codes = state.legal_codes()
            state.apply_code(codes[int(rng.random() * len(codes))])
    view = view_of(state, 1)
    again = pickle.loads(pickle.dumps(view))
    # (a Layout compares by identity: its JSON says everything it holds)
    assert dataclasses.replace(again, layout=view.layout) == view
    assert again.to_json() == view.to_json()
    assert [p.end for p in again.past] == [p.end for p in view.past]
    assert pickle.loads(pickle.dumps(view.config)) == view.config
    for again_state in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert again_state.legal_codes() == state.legal_codes()
        assert view_of(again_state, 1).to_json() == view.to_json()
        code = state.legal_codes()[0]
        assert again_state.apply_code(code) == state.copy().apply_code(code)
    refusal = state.refusal(Action.parse("pass"))
    assert refusal is not None
    assert str(pickle.loads(pickle.dumps(refusal))) == str(refusal)


def test_fives_bench_engine_reports_every_configuration_as_json() -> None:
    # the figures are a compiled dataclass: no __dict__ to dump
    proc = subprocess.run(
        [sys.executable, "-m", "fives.cli.main", "bench", "engine", "--json", "--seconds", "0.01"],
        capture_output=True, text=True, env=_env(), check=False,
    )
    assert proc.returncode == 0, proc.stderr
    figures = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(f["game"], f["players"], f["teams"]) for f in figures] == [
        (c.game.name, c.players, c.teams) for c in all_configs()
    ]
    assert all(f["rounds"] >= 50 and f["rounds_per_sec"] > 0 for f in figures)


def test_the_engine_bench_counts_by_the_clock_it_is_given() -> None:
    # --cpu passes the process's CPU clock: a clock that moves one second per reading ends
    # the run after one batch of 50 rounds, 50 rounds per (clock) second
    readings = iter(range(100))
    figure = measure(Config.make("block", 2), 0.5, 1, clock=lambda: float(next(readings)))
    assert (figure.rounds, figure.rounds_per_sec) == (50, 50.0)
    proc = subprocess.run(
        [sys.executable, "-m", "fives.cli.main", "bench", "engine", "--cpu", "--json",
         "--seconds", "0.01"],
        capture_output=True, text=True, env=_env(), check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) == len(all_configs())


def test_a_half_point_score_is_a_score_wherever_a_score_is_taken() -> None:
    # AF-11's split makes half points; compiled, a parameter typed float refused a Fraction
    config = Config.make("all-fives", 3)
    assert config.counted_points(10, Fraction(25, 2)) == 10
    threes = Config.make("fives-and-threes", 3)
    assert (threes.counted_points(5, Fraction(119, 2)), threes.counted_points(15, Fraction(119, 2))) == (1, 0)


@pytest.mark.slow
def test_python_build_makes_a_compiled_wheel_and_an_sdist_that_installs_without_a_compiler(
    tmp_path: Path,
) -> None:
    _require_compiled()
    root = PACKAGE.parents[1]
    dist = tmp_path / "dist"
    build = [sys.executable, "-m", "build", "--no-isolation", "--skip-dependency-check"]
    subprocess.run([*build, "--sdist", "--outdir", str(dist), str(root)],
                   capture_output=True, text=True, env=_env(), check=True)
    (sdist,) = dist.glob("fives-*.tar.gz")
    # the sdist holds sources only
    with tarfile.open(sdist) as archive:
        assert not [n for n in archive.getnames() if n.endswith(".so") or "_compiled_sources" in n]
        archive.extractall(tmp_path / "unpacked", filter="data")
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    # the wheel, built from the sdist with the extensions `make venv` compiled here (setup.py
    # refuses them unless they were compiled from the sdist's very sources), is compiled:
    # every compiled module and the manifest
    subprocess.run([*build, "--wheel", "--outdir", str(dist), str(unpacked)], capture_output=True,
                   text=True, env=_env(FIVES_REUSE_BUILD=str(PACKAGE.parent)), check=True)
    (wheel,) = dist.glob("fives-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    for module in (*COMPILED_MODULES, MANIFEST):
        assert any(n.startswith(module.replace(".", "/") + ".cpython-") for n in names), module
    assert MANIFEST.replace(".", "/") + ".py" in names
    assert not wheel.name.endswith("-none-any.whl")
    # installed, the wheel runs its compiled core
    installed = tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(installed), str(wheel)], capture_output=True, text=True, env=_env(), check=True)
    files = _python(_FILES, PYTHONPATH=str(installed)).stdout.split()
    assert files[-1] == "compiled" and all(f.endswith(".so") for f in files[:-1]), files
    # and the sdist installs its pure modules where nothing compiles
    target = tmp_path / "pure"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-v", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(sdist)],
        capture_output=True, text=True, env=_env(CC="/bin/false"), check=True,
    )
    said = proc.stdout + proc.stderr
    # found before mypyc's minute of type checking and code generation, not after it
    assert "no C compiler runs here" in said and "installing the pure Python modules" in said
    assert not list(target.rglob("*.so"))
    assert _python(_FILES, PYTHONPATH=str(target)).stdout.split()[-1] == "not-built"


def test_a_wheel_never_reuses_extensions_compiled_from_other_sources(tmp_path: Path) -> None:
    _require_compiled()
    root = PACKAGE.parents[1]
    tree = tmp_path / "tree"
    for name in ("setup.py", "pyproject.toml", "README.md", "src/fives/compiled.py",
                 *("src/" + m.replace(".", "/") + ".py" for m in COMPILED_MODULES)):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / name, tree / name)
    with (tree / "src/fives/core/state.py").open("a", encoding="utf-8") as source:
        source.write("\n# edited after the build\n")
    proc = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext"], cwd=tree, capture_output=True,
        text=True, env=_env(FIVES_REUSE_BUILD=str(PACKAGE.parent)), check=False,
    )
    assert proc.returncode != 0
    assert "the build in place is not of this fives.core.state" in proc.stderr
