"""The original beside the book: `build --reference PATH` compares the corpus with it, for the editor's page.

Reads: the option reference (a build folder of the original, or its corpus.json; any language), the
corpus as corpus.json writes it (made from job.corpus). `lawbook align` reads both its
books here too.
Writes: job.made.alignment, corpus/align.py's Alignment of the two books, which html.write_html turns into
the section "Comparison with the original" of the editor's page (docs/align.md). Without the option it
does nothing, and the page has no such section. A reference that cannot be read is one LawbookError
(status 2) naming its path, before any output that would show it is written.
Bounded (docs/errors.md, "Inputs"): the file must be a regular file (a pipe, a device or a socket is
refused, never waited on), of at most the size of one source (reading/decode.py reads it), and its JSON
nested at most MAX_JSON_DEPTH deep.
"""
import json
import os
import re
from typing import TYPE_CHECKING, Any

from ..core.errors import LawbookError
from ..core.options import reference_file
from ..core.stage import Stage
from ..reading import decode

if TYPE_CHECKING:
    from ..outputs.job import Job

FIX = "give a build folder, or the corpus.json that `lawbook build` wrote"
BUILD_FIX = "give --reference the build folder of the original, or the corpus.json its build wrote"
# corpus.json nests 18 deep for the Dutch book (an edition's articles down to a subitem's notes); past
# this a file is not a corpus, and Python's JSON reader would run out of stack on it.
MAX_JSON_DEPTH = 100
# A JSON string (skipped whole: brackets in text do not nest) or a bracket.
JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def read_bytes(path: str, fix: str = FIX) -> bytes:
    """The bytes of a book's corpus.json: `path` itself (a link the user gave is followed) or the one in
    the build folder it names; a regular file, read with the limit of one source."""
    shown = str(path)
    try:
        real = os.path.realpath(path)  # the path the user typed may be a link; what it names must be a file
        data, size = decode.read_regular(
            real, lambda kind: LawbookError(f"this is {kind}, not a regular file: a corpus.json is read only "
                                            "from a regular file", file=shown, fix=fix),
            decode.MAX_SOURCE_BYTES,
            lambda size: too_big(shown, f"the file is {decode.size_text(size)}"))
    except FileNotFoundError:
        raise LawbookError("no such file", file=shown, fix=fix) from None
    except OSError as e:
        raise LawbookError(f"cannot read: {e.strerror}", file=shown, fix=fix) from None
    if len(data) > decode.MAX_SOURCE_BYTES:
        raise too_big(shown, f"more than {decode.limit_text(decode.MAX_SOURCE_BYTES)} could be read from the file")
    return data


def too_big(shown: str, what: str) -> LawbookError:
    return LawbookError(f"{what}, over the limit of {decode.limit_text(decode.MAX_SOURCE_BYTES)} for a corpus.json "
                        "(the limit of one source)", file=shown,
                        fix="give the corpus.json of a build of the book; it is far smaller")


def check_depth(text: str, shown: str, fix: str = FIX) -> None:
    """Refuse JSON nested deeper than MAX_JSON_DEPTH, naming the line where it passes the limit."""
    depth = 0
    for token in JSON_TOKEN.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                line = text.count("\n", 0, token.start()) + 1
                raise LawbookError(f"JSON nested more than {MAX_JSON_DEPTH} deep: not a corpus", file=shown, line=line,
                                   fix=fix)
        elif bracket in "]}":
            depth -= 1


def read_corpus(arg: str | os.PathLike[str], fix: str = FIX) -> dict[str, Any]:
    """The corpus.json of a build folder, or the file itself, valid against schema/corpus.schema.json."""
    from ..outputs import serialise

    path = reference_file(arg)
    data = read_bytes(str(path), fix)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise LawbookError("not UTF-8", file=str(path), fix=fix) from None
    del data
    check_depth(text, str(path), fix)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise LawbookError(f"not JSON: {e.msg}", file=str(path), line=e.lineno, fix=fix) from None
    except ValueError as e:  # a number of more digits than Python converts (sys.get_int_max_str_digits)
        raise LawbookError(f"not JSON: {e}", file=str(path), fix=fix) from None
    if not isinstance(data, dict) or data.get("format") != "lawbook-corpus":
        raise LawbookError("not a lawbook corpus (no \"format\": \"lawbook-corpus\")", file=str(path), fix=fix)
    errors = serialise.validate_json(data)
    if errors:
        raise LawbookError(f"not a valid corpus: {errors[0]}", file=str(path),
                           fix="give a corpus.json written by `lawbook build`, or rebuild it from its sources")
    return data


def check_reference(arg: str) -> None:
    """`build --reference`: refuse a reference that cannot be read before the build's digest reads it
    (a pipe would block it, a device would never end)."""
    read_bytes(str(reference_file(arg)), BUILD_FIX)


def align_reference(job: "Job") -> None:
    """Reads: options.reference, job.corpus (as corpus.json's object). Writes: job.made.alignment (None
    without a reference)."""
    from ..corpus import align
    from ..outputs import serialise

    job.made.alignment = None
    if job.options.reference is None:
        return
    original = read_corpus(job.options.reference, fix=BUILD_FIX)
    job.made.alignment = align.align(serialise.to_json(job.corpus), original)


STAGES = [Stage("align_reference", align_reference, reads=("options", "corpus"),
                writes=("made.alignment",))]
