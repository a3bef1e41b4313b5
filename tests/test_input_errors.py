"""Bad input quotes itself in the reader's language: the engine's error carries the kind of
fault and what was given, and every interface translates from those (not from the English)."""

from __future__ import annotations

import pytest

from fives.core.games import Config, RulesError
from fives.core.tiles import Action, NotationError
from fives.i18n import reason_text


def test_a_bad_tile_is_told_in_hindi_with_what_was_written() -> None:
    with pytest.raises(NotationError) as caught:
        Action.parse("7-9@W")
    err = caught.value
    assert err.key in ("no_such_tile", "tile_form", "action_form")
    assert any("7-9" in str(v) for v in err.params.values()), err.params
    hindi = reason_text(err, lang="hi")
    assert "7-9" in hindi and hindi != str(err)


def test_a_bad_player_count_is_told_in_hindi_with_the_count() -> None:
    with pytest.raises(RulesError) as caught:
        Config.make("all-fives", 9)
    err = caught.value
    assert err.key == "players_count" and str(err.params.get("value")) == "9"
    hindi = reason_text(err, lang="hi")
    assert "9" in hindi and hindi != str(err)
