"""The original beside the book: `build --reference PATH` compares the corpus with it, for the editor's page.

Reads: the option reference (a build folder of the original, or its corpus.json; any language), the
corpus as corpus.json writes it (ctx.json, else made from ctx.corpus).
Writes: ctx.alignment, corpus/align.py's Alignment of the two books, which html.write_html turns into
the section "Comparison with the original" of the editor's page (docs/align.md). Without the option it
does nothing, and the page has no such section. A reference that cannot be read is one LawbookError
(status 2) naming its path, before any output that would show it is written.
"""
import json

from ..core.errors import LawbookError
from ..core.options import reference_file
from ..corpus import align
from ..outputs import serialise

FIX = "give a build folder, or the corpus.json that `lawbook build` wrote"
BUILD_FIX = "give --reference the build folder of the original, or the corpus.json its build wrote"


def read_corpus(arg, fix=FIX):
    """The corpus.json of a build folder, or the file itself, valid against schema/corpus.schema.json."""
    path = reference_file(arg)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LawbookError("no such file", file=str(path), fix=fix) from None
    except OSError as e:
        raise LawbookError(f"cannot read: {e.strerror}", file=str(path), fix=fix) from None
    except UnicodeDecodeError:
        raise LawbookError("not UTF-8", file=str(path), fix=fix) from None
    except ValueError as e:
        raise LawbookError(f"not JSON: {e.msg}", file=str(path), line=e.lineno, fix=fix) from None
    if not isinstance(data, dict) or data.get("format") != "lawbook-corpus":
        raise LawbookError("not a lawbook corpus (no \"format\": \"lawbook-corpus\")", file=str(path), fix=fix)
    errors = serialise.validate_json(data)
    if errors:
        raise LawbookError(f"not a valid corpus: {errors[0]}", file=str(path),
                           fix="give a corpus.json written by `lawbook build`, or rebuild it from its sources")
    return data


def align_reference(ctx):
    """Reads: options.reference, ctx.json (or ctx.corpus). Writes: ctx.alignment (None without a reference)."""
    ctx.alignment = None
    if ctx.options.reference is None:
        return
    original = read_corpus(ctx.options.reference, fix=BUILD_FIX)
    ctx.alignment = align.align(ctx.json if ctx.json is not None else serialise.to_json(ctx.corpus), original)
