"""The model of how the other seats play (issue 27): its fit finds the temperature that made
the plays, the training is reproducible from its seed, and the shipped file is what the
training command writes."""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path

import pytest

from fives.bots.playmodel import PLAY_MODELS, fit_beta, mean_log_likelihood, play_beta, play_model
from fives.bots.registry import _LADDER
from fives.bots.search import play_log_likelihood
from fives.bots.training import first_match_digest, train
from fives.cli.main import main
from fives.cli.train_cmd import register
from fives.core.games import Config
from fives.core.state import State

SHIPPED = Path(__file__).resolve().parents[2] / "src" / "fives" / "bots" / "play_model.json"


def softmax_plays(beta: float, n: int, seed: int,
                  model_name: str = "greedy") -> list[tuple[State, int]]:
    """Plays drawn from the model itself at ``beta``, from random All Fives positions."""
    rng = random.Random(seed)
    model = play_log_likelihood(model_name, beta, Config.make("all-fives", 2))
    out: list[tuple[State, int]] = []
    while len(out) < n:
        state = State(Config.make("all-fives", 2))
        state.deal_next(rng)
        while state.turn >= 0 and len(out) < n:
            codes = state.legal_codes()
            if len(codes) > 1 and all(c < 140 for c in codes):
                probs = [math.exp(model(state, c)) for c in codes]
                code = rng.choices(codes, probs)[0]
                out.append((state.copy(), code))
            else:
                code = rng.choice(codes)
            state.apply_code(code)
    return out


def test_the_fit_finds_the_temperature_that_made_the_plays() -> None:
    for beta in (0.2, 0.8):
        samples = softmax_plays(beta, 1500, seed=int(beta * 10))
        fitted = fit_beta(samples)
        assert abs(fitted - beta) < 0.1 + 0.15 * beta, (beta, fitted)
        assert mean_log_likelihood(samples, fitted) > mean_log_likelihood(samples, 0.0)


def test_the_fit_finds_the_temperature_of_medium_s_values_that_made_the_plays() -> None:
    for beta in (0.15, 0.6):
        samples = softmax_plays(beta, 1000, seed=int(beta * 100), model_name="medium")
        fitted = fit_beta(samples, model="medium")
        assert abs(fitted - beta) < 0.1 + 0.15 * beta, (beta, fitted)
        # the model that made the plays explains them better than the other one can
        greedy = mean_log_likelihood(samples, fit_beta(samples, model="greedy"), "greedy")
        assert mean_log_likelihood(samples, fitted, "medium") > greedy


def test_training_ships_the_model_that_explains_the_plays_better() -> None:
    data = train(7, 1, ["medium", "easy"], ["all-fives", "fives-and-threes"])
    for entry in data["games"].values():
        assert set(entry["fits"]) == set(PLAY_MODELS)
        best = max(entry["fits"].values(), key=lambda f: f["mean_log_likelihood"])
        assert entry["fits"][entry["model"]] == best
        assert (entry["beta"], entry["mean_log_likelihood"]) == \
            (best["beta"], best["mean_log_likelihood"])


def test_training_is_the_same_from_the_same_seed() -> None:
    a = train(7, 1, ["medium", "easy"], ["block", "all-fives"])
    b = train(7, 1, ["medium", "easy"], ["block", "all-fives"])
    assert a == b and set(a["games"]) == {"block", "all-fives"}
    assert all(g["plays"] > 0 for g in a["games"].values())


def test_the_command_writes_what_the_training_makes(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "model.json"
    code = main(["train", "play-model", "--seed", "7", "--matches", "1", "--bots",
                 "medium,easy", "--games", "block,all-fives", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    assert json.loads(out.read_text("utf-8")) == train(7, 1, ["medium", "easy"],
                                                       ["block", "all-fives"])


def test_the_shipped_model_names_how_it_was_made_and_is_read() -> None:
    data = json.loads(SHIPPED.read_text("utf-8"))
    assert {"seed", "matches", "bots", "games"} <= set(data)
    assert set(data["games"]) == {"all-fives", "fives-and-threes", "muggins", "draw", "block"}
    for game, entry in data["games"].items():
        assert play_beta(game) == entry["beta"] > 0
        assert play_model(game) == (entry["model"], entry["beta"])
        assert entry["model"] in PLAY_MODELS
        # the fit explains the plays better than "any legal play alike"
        assert entry["mean_log_likelihood"] > entry["uniform_log_likelihood"]


def test_the_command_s_defaults_are_the_settings_the_shipped_model_was_fitted_with() -> None:
    # run with no options, the command writes the shipped file again (it did not once `hard`
    # changed: the file named `hard`, fitted on the old one, now `hard-greedy`)
    data = json.loads(SHIPPED.read_text("utf-8"))
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["train", "play-model"])
    assert args.seed == data["seed"] and args.matches == data["matches"]
    assert args.bots.split(",") == data["bots"]
    assert args.games.split(",") == sorted(data["games"])
    assert all(name in _LADDER for name in data["bots"])


def test_the_bots_named_in_the_shipped_model_still_play_its_first_match() -> None:
    # a bot renamed or changed since the fit shows here: its first match's plays differ
    data = json.loads(SHIPPED.read_text("utf-8"))
    game = "fives-and-threes"
    assert first_match_digest(game, data["bots"], data["seed"]) == \
        data["games"][game]["first_match_sha256"]
    assert first_match_digest(game, ["medium", "medium"], data["seed"]) != \
        data["games"][game]["first_match_sha256"]


def test_bad_training_arguments_are_one_line(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    for args, words in ((["--games", "chess"], "chess"), (["--bots", "cmd:x"], "cmd:x"),
                        (["--bots", "nobody"], "nobody"), (["--matches", "0"], "0")):
        code = main(["train", "play-model", "--out", str(tmp_path / "m.json"), *args])
        err = capsys.readouterr().err
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "m.json").exists()
