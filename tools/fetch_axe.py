"""``python tools/fetch_axe.py DEST``: axe-core for the accessibility tests, straight from the
npm registry (the package's tarball, checked against its pinned SHA-512), its ``axe.min.js``
written to ``DEST``.

``make test`` once installed Debian's npm only to run ``npm install axe-core``: on a fresh
machine that is some 375 packages more for apt-get to fetch and unpack. The tarball alone is
what npm would have fetched, and the registry's integrity string pins it.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import sys
import tarfile
import urllib.request
from pathlib import Path

VERSION = "4.14.1"
TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
#: the registry's ``dist.integrity`` of that tarball
INTEGRITY = ("sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe"
             "37OgudVGtQ==")
MEMBER = "package/axe.min.js"


def verified(data: bytes, integrity: str = INTEGRITY) -> bool:
    """Whether ``data`` has the SHA-512 an npm integrity string names."""
    algorithm, _, digest = integrity.partition("-")
    return algorithm == "sha512" and base64.b64encode(hashlib.sha512(data).digest()).decode() \
        == digest


def axe_script(tarball: bytes) -> bytes:
    """``axe.min.js`` out of the package's tarball."""
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as tar:
        member = tar.extractfile(MEMBER)
        if member is None:
            raise ValueError(f"{MEMBER} is not a file in the tarball")
        return member.read()


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tools/fetch_axe.py DEST", file=sys.stderr)
        return 2
    dest = Path(argv[0])
    # npm's own setting, if the machine has one (npm reads the name in either case)
    registry = next((os.environ[k] for k in ("NPM_CONFIG_REGISTRY", "npm_config_registry")
                     if os.environ.get(k)), "https://registry.npmjs.org").rstrip("/")
    url = TARBALL.replace("https://registry.npmjs.org", registry)
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            data = response.read()
    except OSError as exc:
        print(f"error: could not fetch {url}: {exc}", file=sys.stderr)
        return 1
    if not verified(data):
        print(f"error: {url} does not have the SHA-512 pinned for axe-core {VERSION}",
              file=sys.stderr)
        return 1
    try:
        script = axe_script(data)
    except (tarfile.TarError, KeyError, ValueError) as exc:
        print(f"error: {url}: {exc}", file=sys.stderr)
        return 1
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_suffix(".partial")
    partial.write_bytes(script)
    partial.replace(dest)  # whole or not at all: make tests the file's presence
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
