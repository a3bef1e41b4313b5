"""Ratings (issue 17) with OpenSkill's Weng-Lin Plackett-Luce model: the library's published
example reproduced, sides as teams (partners move together), places from the result, bot
levels rated once per match, provisional marks."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from openskill.models import PlackettLuce

from fives.core.games import Config
from fives.server.meta import Seat, TableMeta
from fives.server.ratings import MODEL, match_rows, provisional, rating_step, shown
from fives.store.players import StoredRating


def test_the_library_reproduces_its_published_two_team_example() -> None:
    # openskill's README: a1, a2 beat b1, b2 (the example predates tau, the drift per match)
    model = PlackettLuce(tau=0)
    a1, a2 = model.rating(), model.rating(mu=32.444, sigma=5.123)
    b1, b2 = model.rating(mu=43.381, sigma=2.421), model.rating(mu=25.188, sigma=6.211)
    [[x1, x2], [y1, y2]] = model.rate([[a1, a2], [b1, b2]])
    assert (x1.mu, x1.sigma) == pytest.approx((28.669648436582808, 8.071520788025197))
    assert (x2.mu, x2.sigma) == pytest.approx((33.83086971107981, 5.062772998705765))
    assert (y1.mu, y1.sigma) == pytest.approx((43.071274808241974, 2.4166900452721256))
    assert (y2.mu, y2.sigma) == pytest.approx((23.149503312339064, 6.1378606973362135))
    assert model.rating(mu=43.07, sigma=2.42).ordinal() == pytest.approx(35.81)


def test_the_site_rates_with_plackett_luce_from_1500() -> None:
    assert isinstance(MODEL, PlackettLuce)
    assert shown(MODEL.mu) == 1500


@dataclass
class Ended:
    """What the rating step reads of a finished match."""

    scores: list[int]
    winner: int | None
    round_index: int = 2

    def scores_out(self) -> list[int]:
        return self.scores


def people(game: str, players: int, teams: bool = False) -> TableMeta:
    seats = [Seat("human", name=f"P{i}", player=f"p{i}") for i in range(players)]
    return TableMeta(Config.make(game, players, teams=teams), seats, seed=1, rated=True)


def rate(meta: TableMeta, ended: Ended,
         now: dict[str, StoredRating | None] | None = None) -> dict[str, StoredRating]:
    rows = match_rows("t", meta, ended, 1.0)  # type: ignore[arg-type]
    step = rating_step(meta, ended, rows)  # type: ignore[arg-type]
    return step(now or dict.fromkeys(r.player_id for r in rows))


def test_the_winner_of_two_gains_what_the_loser_loses() -> None:
    new = rate(people("block", 2), Ended([100, 40], 0))
    assert new["p0"].mu > 25 > new["p1"].mu
    assert new["p0"].mu - 25 == pytest.approx(25 - new["p1"].mu)
    assert (new["p0"].wins, new["p1"].wins, new["p0"].matches) == (1, 0, 1)


def test_three_players_are_placed_by_their_scores() -> None:
    new = rate(people("draw", 3), Ended([100, 20, 60], 0))
    assert new["p0"].mu > new["p2"].mu > new["p1"].mu


def test_partners_are_one_team_and_move_together() -> None:
    new = rate(people("all-fives", 4, teams=True), Ended([250, 120], 0))
    assert new["p0"].mu == pytest.approx(new["p2"].mu) and new["p0"].mu > 25
    assert new["p1"].mu == pytest.approx(new["p3"].mu) and new["p1"].mu < 25


def test_a_stronger_player_gains_less_for_beating_a_weaker_one() -> None:
    strong = {"p0": StoredRating("p0", "block", 35.0, 3.0, 40), "p1": None}
    equal = rate(people("block", 2), Ended([100, 0], 0))
    uneven = rate(people("block", 2), Ended([100, 0], 0), strong)
    assert uneven["p0"].mu - 35.0 < equal["p0"].mu - 25.0


def test_a_bot_level_at_two_seats_is_rated_once() -> None:
    meta = people("block", 3)
    meta.seats[1] = Seat("bot", "easy")
    meta.seats[2] = Seat("bot", "easy")
    rows = match_rows("t", meta, Ended([10, 20, 30], 2), 1.0)  # type: ignore[arg-type]
    assert [(r.player_id, r.seat) for r in rows] == [("p0", 0), ("bot-easy", 1)]


def test_a_new_player_is_provisional_until_settled() -> None:
    assert provisional(None)
    assert provisional(StoredRating("p", "block", 25.0, 8.3, 1))
    assert provisional(StoredRating("p", "block", 25.0, 4.0, 3))
    assert not provisional(StoredRating("p", "block", 25.0, 4.0, 12))
