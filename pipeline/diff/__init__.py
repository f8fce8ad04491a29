"""Edition diffs: what changed between two editions of the laws, article by article, as a redline.

    words    tokens and sentences of law text; the word-level diff (difflib)
    compare  article and section matching, word diffs per node, moved sentences, changed references
    render   the comparison as JSON, HTML (templates/diff/) and terminal text

The matching rules and thresholds are in docs/diff.md.
"""
import re
import sys
from pathlib import Path

from lxml import etree

from ..errors import LawbookError
from ..html import collector_paused
from ..serialise import parse_xml, relaxng
from . import render
from .compare import Comparison

FORMATS = {"text": render.to_text, "json": render.to_json, "html": render.to_html}


def compare(old_edition, new_edition):
    """The comparison of two <edition> elements (read only) as a JSON-ready dict."""
    return Comparison(old_edition, new_edition).run()


@collector_paused
def write_diff(ctx):
    """Reads: ctx.corpus. Writes: diff/<old>-<new>.html and .json (e.g. diff/2007-2017.html) for every
    pair of consecutive editions; nothing when the corpus holds fewer than two editions."""
    editions = list(ctx.corpus.iterchildren("edition"))  # the corpus keeps them in chronological order
    if len(editions) < 2:
        return
    out = ctx.tmp / "diff"
    out.mkdir(parents=True, exist_ok=True)
    for old, new in zip(editions, editions[1:]):
        result = compare(old, new)
        name = f"{old.get('id')}-{new.get('id')}"
        (out / f"{name}.json").write_text(render.to_json(result), encoding="utf-8")
        (out / f"{name}.html").write_text(render.to_html(result), encoding="utf-8")


def register(sub):
    """Adds the `diff` subcommand."""
    p = sub.add_parser("diff", help="what changed between two editions, as a redline",
                       description="Compare two editions article by article. OLD and NEW are edition ids "
                                   "(built from --sources) or corpus.xml files from any build.")
    p.add_argument("old", metavar="OLD", help="an edition (e.g. 2007) or a corpus.xml file")
    p.add_argument("new", metavar="NEW", help="an edition (e.g. 2017) or a corpus.xml file")
    p.add_argument("--format", choices=sorted(FORMATS), default="text",
                   help="text for the terminal (default), json for scripts, html for a page")
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--sources", default="sources", help="sources folder for edition ids (default: sources)")
    p.add_argument("--old-edition", metavar="ID", help="the edition to take from OLD when it is a corpus.xml "
                                                       "holding several")
    p.add_argument("--new-edition", metavar="ID", help="the edition to take from NEW when it is a corpus.xml "
                                                       "holding several")
    p.set_defaults(func=cmd_diff)


def cmd_diff(args):
    target = None
    if args.out:  # refused before any work: a path in the sources folder, or a file that is not a diff
        from ..outdir import check_diff_out, write_file

        target = check_diff_out(args.out, args.sources)
    built = {}
    old = resolve_edition(args.old, args.old_edition, args.sources, built, "--old-edition")
    new = resolve_edition(args.new, args.new_edition, args.sources, built, "--new-edition")
    text = FORMATS[args.format](compare(old, new))
    if target is None:
        sys.stdout.write(text)
        return 0
    try:
        write_file(target, text)
    except OSError as e:
        raise LawbookError(f"cannot write the diff: {e.strerror}", file=args.out,
                           fix="give a --out path in a folder that exists and is writable")
    return 0


def resolve_edition(arg, chosen, sources, built, flag):
    """The <edition> element an argument names: a corpus.xml file (its only edition, or `chosen`) or an
    edition id in the corpus built from `sources` (built once, kept in `built`). Raises LawbookError
    (status 2) for a file that is unreadable or not a corpus, and for an edition that is not there."""
    path = Path(arg)
    if path.is_file():
        corpus = read_corpus(path)
        editions = {ed.get("id"): ed for ed in corpus.iterchildren("edition")}
        where = str(path)
    elif re.fullmatch(r"\d{4}", arg):
        if chosen:
            raise LawbookError(f"{flag} only applies to a corpus.xml file, not to the edition id {arg}",
                               fix=f"leave out {flag}, or give a corpus.xml file")
        if "corpus" not in built:
            from ..build import make_corpus  # build imports this module: import when needed
            built["corpus"] = make_corpus(sources).corpus
        editions = {ed.get("id"): ed for ed in built["corpus"].iterchildren("edition")}
        chosen, where = arg, f"{sources}/"
    else:
        raise LawbookError(f"{arg!r} is neither an edition id nor a corpus.xml file",
                           fix="give an edition such as 2007, or the path of a corpus.xml file")
    if chosen is None:
        if len(editions) != 1:
            raise LawbookError(f"the corpus holds {len(editions)} editions ({', '.join(editions) or 'none'})",
                               file=where, fix=f"say which one with {flag}")
        chosen = next(iter(editions))
    if chosen not in editions:
        raise LawbookError(f"edition {chosen} is not in the corpus", file=where,
                           fix=f"editions there: {', '.join(editions) or 'none'}")
    return editions[chosen]


def read_corpus(path):
    """A corpus.xml file, parsed with the safe parser (no entities, no network) and valid against
    schema/corpus.rng: the comparison reads IDs, numbers and sources as the schema gives them, so a
    file that is not (an article without its id, a hand-edited file) is refused at its first fault."""
    try:
        root = parse_xml(path.read_bytes())
    except OSError as e:
        raise LawbookError(f"cannot read: {e.strerror}", file=str(path)) from None
    except etree.XMLSyntaxError as e:
        raise LawbookError(f"not well-formed XML: {e.msg}", file=str(path), line=e.lineno,
                           fix="give a corpus.xml written by `lawbook build`") from None
    if root.tag != "corpus":
        raise LawbookError(f"not a corpus (the root element is <{root.tag}>)", file=str(path),
                           fix="give a corpus.xml written by `lawbook build`")
    for el in root.iter("edition", "article", "section", "subsection", "item", "note", "commentary"):
        if not el.get("id"):  # the fault a hand edit makes most; the schema would only say "attributes"
            num = f" {el.get('num')}" if el.get("num") else ""
            raise LawbookError(f"not a valid corpus: the <{el.tag}>{num} has no id", file=str(path),
                               line=el.sourceline,
                               fix="give a corpus.xml written by `lawbook build`, or rebuild it from its sources")
    schema = relaxng()
    if not schema.validate(root):
        fault = schema.error_log[0]
        raise LawbookError(f"not a valid corpus: {fault.message}", file=str(path), line=fault.line or None,
                           fix="give a corpus.xml written by `lawbook build`, or rebuild it from its sources")
    return root
