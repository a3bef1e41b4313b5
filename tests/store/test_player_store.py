"""The player store, the same tests on SQLite and on PostgreSQL: identities found by their
secret's hash only, names unique with their tag, device links spent once and revocable, a
rated match stored once with its ratings, and "forget me" deleting and anonymising."""

from __future__ import annotations

import json

import pytest

from fives.store import Store
from fives.store.players import (
    NameLooksTaken,
    NameTaken,
    PlayerMatch,
    StoredPlayer,
    StoredRating,
)

from .test_store_suite import run

ASHA = StoredPlayer("p-asha", "Asha", "4821", "person", 1.0)
RAVI = StoredPlayer("p-ravi", "Ravi", "0307", "person", 2.0)


def match(table: str, player: str, seat: int, won: bool, ts: float) -> PlayerMatch:
    return PlayerMatch(table, player, seat, "block", 2, True, False, won, 100 if won else 40, 3, ts)


def plus_one(now: dict[str, StoredRating | None]) -> dict[str, StoredRating]:
    """A rating step that is easy to check: every mu one more than before (25 to start)."""
    return {pid: StoredRating(pid, "block", (r.mu if r else 25.0) + 1, 8.0,
                              (r.matches if r else 0) + 1, 0, 9.0) for pid, r in now.items()}


def test_a_player_is_found_by_the_hash_of_their_secret_only(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_player(ASHA, "hash-a")
        assert await store.player_by_secret("hash-a") == ASHA
        assert await store.player_by_secret("p-asha") is None
        assert await store.player("p-asha") == ASHA
        assert await store.player("nobody") is None

    run(store_url, body)


def test_a_name_and_tag_belong_to_one_player(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_player(ASHA, "hash-a")
        with pytest.raises(NameTaken):
            await store.create_player(StoredPlayer("p-2", "Asha", "4821", "person", 3.0), "h2")
        await store.create_player(StoredPlayer("p-2", "Asha", "4822", "person", 3.0), "h2")
        with pytest.raises(NameTaken):
            await store.rename_player("p-2", "Asha", "4821")
        await store.rename_player("p-2", "आशा", "4821")
        assert (await store.player("p-2")) == StoredPlayer("p-2", "आशा", "4821", "person", 3.0)

    run(store_url, body)


def test_a_device_link_is_spent_once_and_not_after_it_expires(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_player(ASHA, "hash-a")
        await store.add_device_link("p-asha", "link-1", 10.0, 100.0)
        await store.add_device_link("p-asha", "link-2", 10.0, 20.0)
        assert await store.redeem_device_link("link-1", "hash-phone", 50.0) == "p-asha"
        assert await store.redeem_device_link("link-1", "hash-thief", 51.0) is None
        assert await store.redeem_device_link("link-2", "hash-late", 50.0) is None
        assert await store.player_by_secret("hash-phone") == ASHA
        assert await store.player_by_secret("hash-thief") is None

    run(store_url, body)


def test_revoking_devices_keeps_only_this_one(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_player(ASHA, "hash-a")
        await store.add_device_link("p-asha", "link-1", 10.0, 100.0)
        await store.redeem_device_link("link-1", "hash-stolen", 11.0)
        await store.add_device_link("p-asha", "link-2", 12.0, 100.0)
        assert await store.revoke_devices("p-asha", "hash-a") == 2
        assert await store.player_by_secret("hash-stolen") is None
        assert await store.redeem_device_link("link-2", "hash-x", 13.0) is None
        assert await store.player_by_secret("hash-a") == ASHA

    run(store_url, body)


def test_a_rated_match_is_stored_once_with_its_ratings(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_player(ASHA, "hash-a")
        await store.create_player(RAVI, "hash-r")
        await store.create_table("t1", {"seats": []}, 1.0)
        rows = [match("t1", "p-asha", 0, True, 5.0), match("t1", "p-ravi", 1, False, 5.0)]
        assert await store.record_match(rows, plus_one)
        assert not await store.record_match(rows, plus_one)  # again: nothing changes
        rows = [match("t2", "p-asha", 1, False, 6.0), match("t2", "p-ravi", 0, True, 6.0)]
        assert await store.record_match(rows, plus_one)
        [rating] = await store.ratings_of("p-asha")
        assert (rating.mu, rating.matches) == (27.0, 2)
        history = await store.matches_of("p-asha")
        assert [(m.table_id, m.won, m.mu) for m in history] == [
            ("t2", False, 27.0), ("t1", True, 26.0)]
        board = await store.leaderboard("block")
        assert [p.id for p, _ in board] == ["p-asha", "p-ravi"]
        assert await store.leaderboard("draw") == []

    run(store_url, body)


def test_an_unrated_match_is_kept_without_ratings(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_player(ASHA, "hash-a")
        row = match("t1", "p-asha", 0, True, 5.0)
        row.rated = False
        assert await store.record_match([row], None)
        assert await store.ratings_of("p-asha") == []
        [kept] = await store.matches_of("p-asha")
        assert not kept.rated and kept.mu is None

    run(store_url, body)


def test_forget_me_deletes_the_player_and_anonymises_their_matches(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_player(ASHA, "hash-a")
        await store.create_player(RAVI, "hash-r")
        meta = {"seats": [{"kind": "human", "name": "Asha", "player": "p-asha"},
                          {"kind": "human", "name": "Ravi", "player": "p-ravi"}]}
        await store.create_table("t1", meta, 1.0)
        await store.finish("t1", {"seats": ["Asha", "Ravi"]}, 2.0)
        await store.create_table("t2", meta, 3.0)  # still in play
        await store.record_match([match("t1", "p-asha", 0, True, 2.0),
                                  match("t1", "p-ravi", 1, False, 2.0)], plus_one)
        changed = await store.forget_player("p-asha", "—")
        assert sorted(changed) == ["t1", "t2"]
        assert await store.player("p-asha") is None
        assert await store.player_by_secret("hash-a") is None
        assert await store.ratings_of("p-asha") == []
        assert await store.matches_of("p-asha") == []
        t1 = await store.load("t1")
        assert t1 is not None and t1.record == {"seats": ["—", "Ravi"]}
        assert t1.meta["seats"][0] == {"kind": "human", "name": "—", "player": None}
        assert "p-asha" not in json.dumps(t1.meta) and "Asha" not in json.dumps(t1.meta)
        assert [m.table_id for m in await store.matches_of("p-ravi")] == ["t1"]
        assert await store.player("p-ravi") == RAVI

    run(store_url, body)


def test_a_bot_account_is_opened_by_its_token_and_owned(store_url: str) -> None:
    bot = StoredPlayer("b-1", "Domino Dan", "0042", "outside", 4.0)

    async def body(store: Store) -> None:
        await store.create_player(ASHA, "hash-a")
        await store.create_bot_account(bot, "p-asha", "token-1")
        assert await store.player_by_secret("token-1") == bot
        assert await store.bot_accounts_of("p-asha") == [bot]
        assert not await store.new_bot_token("b-1", "p-ravi", "token-x")
        assert await store.new_bot_token("b-1", "p-asha", "token-2")
        assert await store.player_by_secret("token-1") is None
        assert await store.player_by_secret("token-2") == bot
        await store.forget_player("p-asha", "—")  # the owner's bots go with them
        assert await store.player("b-1") is None and await store.bot_accounts_of("p-asha") == []

    run(store_url, body)


def test_a_name_that_looks_like_another_players_is_refused_whatever_its_tag(
        store_url: str) -> None:
    """An all-Cyrillic "Аѕһа" reads as "Asha": refused as a new player, a rename and a bot
    account, with any tag; the same name written the same way (told apart by its tag), another
    name, and a player's own look-alike of their own name are not."""
    cyrillic = "\u0410\u0455\u04bb\u0430"

    async def body(store: Store) -> None:
        await store.create_player(ASHA, "hash-a")
        await store.create_player(RAVI, "hash-r")
        for tag in ("4821", "0001"):
            with pytest.raises(NameLooksTaken):
                await store.create_player(StoredPlayer("p-x", cyrillic, tag, "person", 3.0), "x")
        with pytest.raises(NameLooksTaken):
            await store.rename_player("p-ravi", cyrillic, "0307")
        with pytest.raises(NameLooksTaken):
            await store.create_bot_account(StoredPlayer("o-x", "Rav\u0456", "0001", "outside",
                                                        3.0), "p-asha", "token-x")
        assert await store.player("p-x") is None and await store.player("o-x") is None
        assert (await store.player("p-ravi")) == RAVI
        await store.create_player(StoredPlayer("p-2", "Asha", "0002", "person", 3.0), "h2")
        await store.create_player(StoredPlayer("p-3", "Aisha", "0003", "person", 3.0), "h3")
        await store.rename_player("p-ravi", "Rav\u0456", "0307")  # like only their own name
        assert (await store.player("p-ravi")).name == "Rav\u0456"  # type: ignore[union-attr]

    run(store_url, body)


def test_names_stored_before_their_looks_get_them_when_the_store_starts(
        store_url: str) -> None:
    """Migration 0102 adds the looks; the rows it finds are filled in at the next start, so
    an old "Asha" is protected like a new one."""
    async def forget_looks(store: Store) -> None:
        await store.create_player(ASHA, "hash-a")
        if store_url.startswith("postgresql"):
            await store._pool.execute("UPDATE players SET look = NULL")  # type: ignore[attr-defined]
        else:
            store._db.execute("UPDATE players SET look = NULL")  # type: ignore[attr-defined]

    async def refused(store: Store) -> None:
        with pytest.raises(NameLooksTaken):
            await store.create_player(StoredPlayer("p-x", "\u0410sha", "0001", "person", 3.0),
                                      "x")

    run(store_url, forget_looks)
    run(store_url, refused)
