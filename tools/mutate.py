"""``make mutate MODULE=src/fives/core/outcome.py``: a mutation run (mutmut 3) bounded to one
module and the tests that guard it, in a folder of its own.

A whole-package run copies the tree, forks a pytest per mutant and takes hours on two cores;
it does not mix with pytest-xdist or with services started per session, and the modules mypyc
compiles must run pure. So each run here:

- copies ``src``, ``tests`` and the project's files into ``build/mutate/<module>/`` (no compiled
  extension: the pure modules run, ``FIVES_PURE=1``), and writes there a ``[tool.mutmut]`` that
  mutates that one module and runs only its guarding tests (``GUARDS`` below, or ``TESTS=``),
  serially (no ``-n``), each under a time limit;
- runs ``mutmut run --max-children 2`` under ``timeout`` (``MINUTES=``, default 60), on every
  mutant or on those ``ONLY=`` names (mutmut's names, ``*`` patterns allowed, or ``@FILE`` for
  a file of names: the survivors of a run before, to check the tests written since);
- writes ``results.txt`` (every mutant's fate) and ``summary.json`` (counts, score, minutes)
  there, and prints the summary line that ``docs/testing.md`` records.

Survivors are read with ``cd build/mutate/<name> && ../../../.venv/bin/mutmut show <mutant>``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the tests that guard each module (the folders whose tests exercise it), fast ones only
GUARDS: dict[str, list[str]] = {
    "src/fives/core/outcome.py": ["tests/test_outcome_json.py", "tests/test_rules.py"],
    "src/fives/core/history.py": ["tests/test_view.py", "tests/test_rules.py"],
    "src/fives/core/errors.py": ["tests/test_input_errors.py", "tests/test_rejections.py"],
    "src/fives/core/render.py": ["tests/test_render.py", "tests/bridges/test_pettingzoo_bridge.py"],
    "src/fives/core/pickling.py": ["tests/test_pickling.py", "tests/test_lookahead.py",
                                   "tests/test_config_header.py"],
    "src/fives/core/tiles.py": ["tests/test_notation.py", "tests/test_rules.py", "tests/test_rejections.py"],
    "src/fives/core/view.py": ["tests/test_view.py", "tests/test_view_from_json.py"],
    "src/fives/core/record.py": ["tests/test_record_io.py", "tests/test_examples.py", "tests/test_rules.py", "tests/test_rejections.py",
                                 "tests/test_input_errors.py", "tests/test_replay_lang.py"],
    "src/fives/core/layout.py": ["tests/test_layout_values.py", "tests/test_rules.py",
                                 "tests/test_properties.py",
                                 "tests/test_render.py", "tests/test_view_from_json.py",
                                 "tests/bots/test_transpose.py"],
    "src/fives/core/games.py": ["tests/test_game_config.py", "tests/test_rules.py",
                                "tests/test_config_header.py"],
    "src/fives/core/state.py": ["tests/test_rules.py", "tests/test_properties.py",
                                "tests/test_examples.py", "tests/test_account.py",
                                "tests/test_rejections.py", "tests/test_input_errors.py",
                                "tests/test_record_io.py", "tests/test_state_refusals.py",
                                "tests/test_view.py", "tests/test_deal_refusals.py",
                                "tests/test_outcome_json.py", "tests/test_target_end.py",
                                "tests/test_log_entries.py"],
    "src/fives/core/sampling.py": ["tests/bots/test_sampling.py", "tests/bots/test_sampling_edges.py",
                                   "tests/bots/test_inference.py"],
    "src/fives/core/account.py": ["tests/test_account.py", "tests/test_rules.py"],
    "src/fives/bots/transpose.py": ["tests/bots/test_transpose.py",
                                    "tests/bots/test_search_values.py"],
    "src/fives/bots/search.py": ["tests/bots/test_search_values.py",
                                 "tests/bots/test_search_pinned.py",
                                 "tests/bots/test_inference.py", "tests/bots/test_known_best.py",
                                 "tests/bots/test_more_worlds.py",
                                 "tests/bots/test_playout_policy.py",
                                 "tests/bots/test_search_values_oracle.py",
                                 "tests/bots/test_ismcts_pinned.py",
                                 "tests/bots/test_halving_pinned.py",
                                 "tests/bots/test_medium_playouts.py",
                                 "tests/bots/test_medium.py",
                                 "tests/bots/test_medium_rule.py",
                                 "tests/bots/test_search_time_cap.py"],
}

_STATUS = re.compile(r"^\s*(\S+):\s*(\w[\w ]*)$")


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: mutate.py src/fives/core/MODULE.py [tests...]", file=sys.stderr)
        return 2
    module = argv[0]
    tests = argv[1:] or GUARDS.get(module, [])
    if not (ROOT / module).is_file():
        print(f"error: no module {module}", file=sys.stderr)
        return 2
    if not tests:
        print(f"error: no guarding tests known for {module}: name them (TESTS=...)",
              file=sys.stderr)
        return 2
    minutes = float(os.environ.get("MINUTES", "60"))
    only = os.environ.get("ONLY", "").split()
    if len(only) == 1 and only[0].startswith("@"):
        only = Path(only[0][1:]).read_text("utf-8").split()
    name = Path(module).stem if "/core/" not in module else "core-" + Path(module).stem
    work = ROOT / "build" / "mutate" / name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("*.so", "__pycache__", "*.pyc", "__snapshots__",
                                    "playthroughs")
    shutil.copytree(ROOT / "src", work / "src", ignore=ignore)
    shutil.copytree(ROOT / "tests", work / "tests", ignore=ignore)
    for extra in ("setup.py", "README.md"):
        shutil.copy2(ROOT / extra, work / extra)
    project = (ROOT / "pyproject.toml").read_text("utf-8")
    config = "\n".join([
        "[tool.mutmut]",
        'source_paths = ["src"]',
        f"only_mutate = [{json.dumps(module)}]",
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}",
        'pytest_add_cli_args = ["-p", "no:xdist", "-p", "no:cacheprovider", "-q", "-x", '
        '"--timeout=120"]',
        # a mutant that loops is stopped at 8 times its tests' time (mutmut's default, 30
        # times, held a run on one mutant of the engine's hottest loops for a quarter hour)
        "timeout_multiplier = 4.0",
        "",
    ])
    (work / "pyproject.toml").write_text(project + "\n" + config, "utf-8")
    env = {**os.environ, "FIVES_PURE": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    mutmut = str(Path(sys.executable).parent / "mutmut")
    started = time.monotonic()
    with open(work / "run.log", "w", encoding="utf-8") as log:
        code = subprocess.run(["timeout", str(int(minutes * 60)), mutmut, "run",
                               "--max-children", "2", *only], cwd=work, env=env, stdout=log,
                              stderr=subprocess.STDOUT, check=False).returncode
    spent = (time.monotonic() - started) / 60
    results = subprocess.run([mutmut, "results", "--all", "true"], cwd=work, env=env,
                             capture_output=True, text=True, check=False).stdout
    (work / "results.txt").write_text(results, "utf-8")
    counts: dict[str, int] = {}
    for line in results.splitlines():
        m = _STATUS.match(line)
        if m:
            counts[m.group(2)] = counts.get(m.group(2), 0) + 1
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    judged = killed + counts.get("survived", 0)
    summary = {"module": module, "tests": tests, "counts": counts, "minutes": round(spent, 1),
               "finished": code == 0, "score": round(100 * killed / judged, 1) if judged else None}
    (work / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", "utf-8")
    print(json.dumps(summary))
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
