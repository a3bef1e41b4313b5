"""axe-core fetched straight from the npm registry (tools/fetch_axe.py, ``make axe``): the
tarball is taken only with the SHA-512 pinned for it, ``axe.min.js`` is what is written, and a
registry out of reach is one line and no file."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import tarfile
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "tools" / "fetch_axe.py"
_spec = importlib.util.spec_from_file_location("fetch_axe", _PATH)
assert _spec is not None and _spec.loader is not None
fetch_axe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fetch_axe)


def _tarball(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def test_only_the_pinned_sha512_is_taken() -> None:
    data = _tarball({"package/axe.min.js": b"axe()"})
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    assert fetch_axe.verified(data, integrity)
    assert not fetch_axe.verified(data + b"x", integrity)
    assert not fetch_axe.verified(data, integrity.replace("sha512", "sha1"))
    assert not fetch_axe.verified(data)  # not the real tarball's


def test_the_script_is_taken_out_of_the_package() -> None:
    assert fetch_axe.axe_script(_tarball({"package/README.md": b"r",
                                          "package/axe.min.js": b"axe()"})) == b"axe()"
    with pytest.raises(KeyError):
        fetch_axe.axe_script(_tarball({"package/axe.js": b"axe()"}))


def test_a_registry_out_of_reach_is_one_line_and_no_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("npm_config_registry", "http://127.0.0.1:9")
    dest = tmp_path / "axe" / "axe.min.js"
    assert fetch_axe.main([str(dest)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: could not fetch http://127.0.0.1:9/axe-core/")
    assert len(err.strip().splitlines()) == 1
    assert not dest.exists() and not dest.parent.exists()
