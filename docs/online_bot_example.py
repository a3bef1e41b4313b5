"""An outside bot playing on a fives site (docs/online-bots.md): it connects to /ws/bot with
its account's token and answers every "act" line of BOT-PROTOCOL.md with one of the legal
actions, the heaviest tile first. Needs only `pip install websockets`.

    FIVES_BOT_TOKEN=... python docs/online_bot_example.py https://fives.example
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect


def pips(action: str) -> int:
    """The pips of the tile an action plays ("3-5@E": 8); a draw or a pass counts -1."""
    tile = action.split("@")[0]
    if "-" not in tile:
        return -1
    low, high = tile.split("-")
    return int(low) + int(high)


def choose(view: dict, legal: list[str]) -> str:
    """The heaviest tile: it scores nothing less, and it costs most if left in the hand."""
    return max(legal, key=pips)


def play(url: str, token: str) -> int:
    """Play until the site closes the connection; 0 if it closed normally."""
    address = url.rstrip("/").replace("http", "ws", 1) + "/ws/bot"
    headers = {"Authorization": f"Bearer {token}"}
    with connect(address, additional_headers=headers, max_size=2**20) as ws:
        try:
            for text in ws:
                message = json.loads(text)
                kind = message.get("type")
                if kind == "welcome":
                    print(f"playing as {message['bot']['label']}", file=sys.stderr, flush=True)
                elif kind == "act":
                    action = choose(message["view"], message["legal"])
                    ws.send(json.dumps({"action": action}))
                elif kind == "error":
                    print(f"the site says: {message['message']}", file=sys.stderr)
                    return 1
                # "start" and "end" lines, and any type not known yet, are ignored
        except ConnectionClosed as closed:
            return 0 if closed.rcvd is None or closed.rcvd.code == 1000 else 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the site, e.g. https://fives.example")
    parser.add_argument("--token", default=os.environ.get("FIVES_BOT_TOKEN", ""),
                        help="the bot account's token (default: $FIVES_BOT_TOKEN)")
    parser.add_argument("--retry", type=float, default=0,
                        help="seconds to wait and connect again after the site closes (0: exit)")
    args = parser.parse_args()
    if not args.token:
        parser.error("the bot's token is needed (--token or FIVES_BOT_TOKEN)")
    while True:
        try:
            status = play(args.url, args.token)
        except (OSError, InvalidStatus) as exc:
            print(f"cannot connect: {exc}", file=sys.stderr)
            status = 2
        if not args.retry:
            return status
        time.sleep(args.retry)


if __name__ == "__main__":
    sys.exit(main())
