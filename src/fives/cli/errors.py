"""Errors every command may raise, and the one way they are printed.

The argument parser's own complaints (a seat that is not a number, an unknown game) are told in
the reader's language too: ``--lang`` when the command line gives it, else the locale's.

>>> argument_error_text("argument --seat: invalid int value: 'q'", "hi")
"--seat के बाद कोई पूरी संख्या लिखें, 'q' नहीं ('fives --help' देखें)"
>>> argument_error_text("argument --lang: invalid choice: 'xx' (choose from 'en', 'hi')", "en")
"--lang is one of en, hi, not 'xx' (see 'fives --help')"
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

from fives.i18n import LANGUAGES, catalogue, default_language, t


def print_error(message: str) -> None:
    """Print one error line. It always begins ``error:`` (RECORD.md: scripts and outside checks
    read that word, whatever the language); what follows is in the reader's language."""
    print(f"error: {message}", file=sys.stderr)


class UsageError(Exception):
    """Bad command-line input: printed as one ``error:`` line (in ``lang``), exit status 2."""

    def __init__(self, message: str, lang: str = "en") -> None:
        super().__init__(message)
        self.lang = lang


class ArgumentsError(Exception):
    """The argument parser refused the command line; its (English) message, to be told in the
    reader's language by :func:`argument_error_text`."""


def _listed(text: str) -> str:
    """argparse's ``'a', 'b'`` as ``a, b``."""
    return ", ".join(part.strip().strip("'") for part in text.split(","))


#: argparse's messages (Python 3.11 and later) -> the catalogue key that says the same
_ARGPARSE = [
    (re.compile(r"^argument command: invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)$"), "command"),
    (re.compile(r"^argument (?P<arg>\S+): invalid int value: (?P<value>.*)$"), "not_int"),
    (re.compile(r"^argument (?P<arg>\S+): invalid float value: (?P<value>.*)$"), "not_number"),
    (re.compile(r"^argument (?P<arg>\S+): invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)$"), "choice"),
    (re.compile(r"^argument (?P<arg>\S+): expected one argument$"), "needs_value"),
    (re.compile(r"^the following arguments are required: (?P<args>.*)$"), "required"),
    (re.compile(r"^unrecognized arguments: (?P<args>.*)$"), "unknown"),
    (re.compile(r"^ambiguous option: (?P<arg>\S+) could match (?P<choices>.*)$"), "ambiguous"),
]


def argument_error_text(message: str, lang: str) -> str:
    """argparse's ``message`` in ``lang``, with where to look for help; a message it does not
    know stays as argparse wrote it."""
    for pattern, key in _ARGPARSE:
        found = pattern.match(message)
        if found:
            params = found.groupdict()
            if "choices" in params:
                params["choices"] = _listed(params["choices"])
            message = t(f"cli.args.{key}", lang, **params)
            break
    return t("cli.args.see_help", lang, message=message)


def language_of(argv: Sequence[str]) -> str:
    """The reader's language for a command line: its ``--lang`` if it names one, else the
    locale's."""
    for i, word in enumerate(argv):
        value = None
        if word == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif word.startswith("--lang="):
            value = word.split("=", 1)[1]
        if value in LANGUAGES:
            return value
    return default_language()


def keyed_text(area: str, exc: Exception, lang: str) -> str:
    """An error that names itself by ``key`` and ``params`` (a bot's name, the store) in
    ``lang``: the catalogue's ``cli.<area>.<key>``; its English text where it has no key."""
    key = getattr(exc, "key", "")
    params = getattr(exc, "params", None)
    full = f"cli.{area}.{key}"
    if not key or full not in catalogue("en"):
        return str(exc)
    values = dict(params) if isinstance(params, dict) else {}
    if isinstance(values.get("why"), OSError):  # the system's reason, in the reader's words
        from fives.phrasing import os_error_text

        values["why"] = os_error_text(values["why"], lang)
    return t(full, lang, **values)
