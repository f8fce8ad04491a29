"""Command line: python -m pipeline (also installed as `lawbook`).

    build [--sources DIR] [--out DIR] [--force] [--no-commentary] [--no-pdf] [--no-corrections]
          [--reference PATH]              build every output into DIR (default build/); does
                                          nothing when DIR already holds a build of these inputs
    show ID [--json]                      one node's text, notes and sources
    convert [--sources DIR] --out DIR     the sources as Markdown masters, one per edition, and their manifest
    check [--sources DIR] [--known-missing FILE] [--json] [--strict]
                                          references whose target is not in the corpus
    diff OLD NEW [--format text|json|html] [--out FILE]
                                          what changed between two editions (ids or corpus.xml files)
    align TRANSLATION REFERENCE [--json] [--propose]
                                          compare two books node by node (build folders or corpus.json)
    serve [--out DIR] [--port N] [--host-name NAME]
                                          serve DIR/html on 127.0.0.1 (search needs a web server)
          [--watch [--sources DIR] [--no-pdf]]
                                          and rebuild DIR on every change to the sources (docs/watch.md)

Exit status: 0 success, 1 the build found errors (or `show` an ID the corpus does not hold), 2 bad usage,
unreadable input or an edition the corpus does not hold (the same message from `show` and `diff`); 141
(128 + SIGPIPE, as the shell reports a command the signal stopped) when the reader of the output went
away before the end (`lawbook show 2017/53 | head -1`): no error of the build.
Errors are one message naming the file and line; --debug shows the traceback.
"""
import argparse
import json
import os
import re
import sys
from pathlib import Path
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeAlias

from .core.errors import BuildFailed, LawbookError, shown_safely, write_failure

if TYPE_CHECKING:
    from lxml.etree import _Element as Element

    from .core.lang import Profile
    from .corpus.stages import CorpusContext
    from .publish.state import BuildSummary

    # The subcommands' registry argparse gives add_subparsers (a private name in argparse's own stubs).
    Commands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

# Every command imports what it needs when it runs: `lawbook build` with nothing to do reads the
# stamp without loading lxml, jinja2 or the stages (see docs/architecture.md, "Start-up").


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="lawbook", description="Publishing pipeline for the laws of duplicate "
                                                                  "bridge, in Dutch, English and French")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", required=True)
    for add_command in COMMANDS:
        add_command(sub)

    args = parser.parse_args(argv)
    try:
        status: int = args.func(args) or 0
        sys.stdout.flush()  # here, where a reader that went away is answered, not in the interpreter's exit
        return status
    except LawbookError as e:
        if args.debug:
            raise
        # A failed build names each error first (FILE:LINE: message), then what happened and what to do.
        if isinstance(e, BuildFailed):
            for entry in e.errors:
                print(shown_safely(f"lawbook: error: {e.where(entry)}: {entry.message}"), file=sys.stderr)
        print(f"lawbook: error: {e}", file=sys.stderr)
        return e.status
    except BrokenPipeError:  # the reader went away (`lawbook show 2017/53 | head`): nothing left to say
        return _reader_went_away()
    except KeyboardInterrupt:
        print("lawbook: interrupted; the previous build is left as it was", file=sys.stderr)
        return 130
    except MemoryError:
        if args.debug:
            raise
        print("lawbook: error: out of memory\n  fix: see the limits in docs/errors.md; split large sources "
              "into several files", file=sys.stderr)
        return 2
    except OSError as e:  # the file system refused: a full disk, a folder without write permission, …
        if args.debug:
            raise
        # A full disk or the file-size limit: name the file being written (the build notes the last one opened).
        run = sys.modules.get("pipeline.publish.run")
        written = write_failure(e.errno, e.filename or (run and run.last_written["path"]) or "the output folder")
        if written is not None:
            print(f"lawbook: error: {written}", file=sys.stderr)
            return 2
        where = f"{e.filename}: " if e.filename else ""
        print(shown_safely(f"lawbook: error: {where}{e.strerror or e}") + "\n  fix: check the path, its permissions "
              "and the free disk space, then run again", file=sys.stderr)
        return 2
    except Exception as e:  # a bug: still one message, the traceback with --debug
        if args.debug:
            raise
        print(f"lawbook: internal error: {type(e).__name__}: {e}\n  fix: run again with --debug and report it",
              file=sys.stderr)
        return 2


# The status of a command whose reader went away before it had read everything (`lawbook show … | head`):
# 128 + SIGPIPE, what the shell gives a command the signal stopped (cat, grep). Not 1, which says the build
# found errors, nor 2: nothing was wrong with the input or the command, the output was cut short.
BROKEN_PIPE = 128 + 13


def _reader_went_away() -> int:
    """After a BrokenPipeError on stdout: nothing is said (the reader is gone) and nothing more is written;
    stdout is pointed at /dev/null so that flushing it at the exit raises no second error."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError:
        pass
    return BROKEN_PIPE


# -- build ---------------------------------------------------------------------------------------
def add_cache_dir(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cache-dir", metavar="DIR",
                   help="the cache of readings (default: $XDG_CACHE_HOME/lawbook or ~/.cache/lawbook; "
                        "`make` gives .cache/lawbook in the project)")


def add_build_command(sub: "Commands") -> None:
    p = sub.add_parser("build", help="build all outputs from the sources",
                       description="Build the corpus, the report, the reference graph, the HTML site, the "
                                   "Markdown and PDF editions and the edition diff into a fresh folder, and "
                                   "swap it in only when the build found no errors. Does nothing when the "
                                   "output folder already holds a build of these inputs.")
    p.add_argument("--sources", default="sources", metavar="DIR",
                   help="the sources folder with its sources.toml (default: sources)")
    p.add_argument("--out", default="build", metavar="DIR",
                   help="the output folder: missing, empty or an earlier build (default: build)")
    p.add_argument("--force", "--no-cache", dest="force", action="store_true",
                   help="rebuild everything: ignore the previous build and the cache")
    add_cache_dir(p)
    p.add_argument("--no-commentary", action="store_true",
                   help="leave commentary out of the PDF edition, as in the official print")
    p.add_argument("--no-pdf", action="store_true", help="leave out the PDF edition (a quicker preview)")
    p.add_argument("--no-corrections", action="store_true",
                   help="build the book exactly as the sources say: leave out SOURCES/corrections.toml")
    p.add_argument("--reference", metavar="PATH",
                   help="the original's build folder or its corpus.json: the editor's page compares the book "
                        "with it (docs/align.md)")
    p.set_defaults(func=cmd_build)


def cmd_build(args: argparse.Namespace) -> int:
    """Build into --out. A build that finds errors raises BuildFailed (status 1): main prints each
    error as FILE:LINE: message, and --out is left as it was. An --out that is not the build's own
    (outdir.check_target) is refused before anything is read."""
    from .publish import cache, outdir

    from .core.options import Options

    options = Options(debug=args.debug, force=args.force, no_commentary=args.no_commentary, no_pdf=args.no_pdf,
                      no_corrections=args.no_corrections, reference=args.reference, cache_dir=args.cache_dir)
    outdir.check_target(args.out, args.sources)
    if args.reference is not None:  # a pipe or a device would block or never end the digest of the inputs
        from .publish import reference

        reference.check_reference(args.reference)
    if cache.up_to_date(args.sources, args.out, options):
        print(f"{args.out}/ is up to date")
        return 0
    from .publish import run  # the stages are imported only when there is work to do

    summary = run.build(args.sources, args.out, options).summary()
    for line in closing_lines(summary, args.out):
        print(line)
    return 0


def closing_lines(summary: "BuildSummary", out: str) -> list[str]:
    """What an editor reads at the end of a build (the README explains each line): what was built from
    what, what the book check found, and the references that point outside the corpus."""
    counts = ", ".join(f"{v} {k}" for k, v in summary.counts.items())
    lines = [f"built {out}/ from {summary.sources} sources: {counts}", *summary.said]
    report = f"{out}/report.txt"
    if not summary.dangling and not summary.suspect:
        lines.append(f"every reference resolves; the report is {report}")
    else:
        suspect = f", {summary.suspect} suspect" if summary.suspect else ""
        lines.append(f"{summary.dangling} references point outside the corpus{suspect}: `lawbook check` lists them; "
                     f"the report is {report}")
    return lines


# -- show ----------------------------------------------------------------------------------------
def add_show_command(sub: "Commands") -> None:
    p = sub.add_parser("show", help="show one node of the corpus: its text, notes, children and sources",
                       description="Show one node of the corpus. ID is an edition and a citation (2017/50D2a); "
                                   "case does not matter, the book's citation keyword may stand before it "
                                   "(as in 'Law 53A' in an English book), and without an edition the newest edition that "
                                   "holds the citation is shown. An ID the committee's corrections renumbered "
                                   "shows the node under its new ID, saying so. Exit status 1 for an ID the "
                                   "corpus does not hold, 2 for an edition it does not hold.")
    p.add_argument("id", metavar="ID", help="e.g. 2017/50D2a, 2017/41A/noot1, 53A, 'Law 53A' (the book's own citation keyword) or '2007 41B'")
    p.add_argument("--json", action="store_true", help="print the node as JSON instead of text")
    p.add_argument("--sources", default="sources", metavar="DIR", help="the sources folder (default: sources)")
    p.set_defaults(func=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    from .corpus import lookup
    from .outputs import show
    from .publish import run

    if re.fullmatch(r"\d{4}/def/\S+", args.id.strip()):  # a definition of the book's Definitions
        return _show_definition(run.make_corpus(args.sources), args.id.strip().lower(), args.json)
    ctx = run.make_corpus(args.sources)
    corpus = _tree(ctx)
    typed = lookup.typed_id(args.id, ctx.profile)
    node_id, el, said = lookup.find_node(corpus, *typed, typed_as=args.id)
    if said:
        print(said, file=sys.stderr)
    if el is None:  # renumbered by the committee's corrections: show the node under its new ID, saying so
        moved = lookup.renumbered_to(corpus, node_id)
        if moved is not None:
            el, line = moved
            print(f"{node_id}: renumbered to {el.get('id')} by corrections.toml:{line}; showing {el.get('id')}",
                  file=sys.stderr)
    if el is None:  # an article known only from its commentary: show that, saying so
        commentary = [c for c in corpus.iter("commentary") if c.get("on") == node_id]
        if not commentary:
            raise lookup.not_in_corpus(corpus, node_id)
        print(f"{node_id}: the text of this article is in none of the sources; its commentary:", file=sys.stderr)
        summaries = [show.node_summary(c) for c in commentary]
        print(json.dumps(summaries, ensure_ascii=False, indent=1) if args.json else
              "\n\n".join(show.render_text(c, pages=lookup.commentary_only(corpus)) for c in commentary))
        return 0
    data = show.node_summary(el)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        print(show.render_text(el, pages=lookup.commentary_only(corpus)))
    return 0


def _show_definition(ctx: "CorpusContext", node_id: str, as_json: bool) -> int:
    """`show 2017/def/alert`: the term and its text, or one message naming the terms there are."""
    from .core import tree

    corpus = _tree(ctx)
    found = corpus.xpath("//definition[@id=$id]", id=node_id)
    if not isinstance(found, list) or not found:
        terms = [str(d.get("id")) for d in corpus.iter("definition")]
        raise LawbookError(f"{node_id} is not in the corpus", status=1,
                           fix=f"the definitions are {', '.join(terms[:8])}{' …' if len(terms) > 8 else ''}"
                           if terms else "the sources hold no definitions")
    el: Element = found[0]  # type: ignore[assignment]  # (an element path gives elements)
    own = list(el.iterchildren(*tree.TEXT_TAGS))  # its paragraphs and tables: a table's text is its cells' words
    data: dict[str, Any] = {"id": node_id, "term": el.get("term"), "text": " ".join(tree.plain_text(p) for p in own),
            "sources": el.get("sources")}
    tables = [[[tree.plain_text(cell) for cell in row] for row in tree.cells(t)] for t in own if t.tag == "table"]
    if tables:
        data["tables"] = tables
    # As text: its paragraphs, and a table a row a line with its cells between bars (as `show` of a node).
    shown = [f"  {tree.plain_text(p)}" if p.tag == "p" else
             "\n".join("  | " + " | ".join(tree.plain_text(cell) for cell in row) + " |" for row in tree.cells(p))
             for p in own]
    print(json.dumps(data, ensure_ascii=False, indent=1) if as_json else
          "\n".join([f"{node_id}  {data['term']}", *shown, f"sources: {data['sources']}"]))
    return 0


# -- convert -------------------------------------------------------------------------------------
def add_convert_command(sub: "Commands") -> None:
    p = sub.add_parser("convert", help="write the sources as Markdown masters, one per edition, with their manifest",
                       description="One Markdown master per edition and a sources.toml listing them, in a new "
                                   "folder; the old sources are left alone, and nothing is written unless the "
                                   "masters read back to the same corpus (docs/sources.md).")
    p.add_argument("--sources", default="sources", metavar="DIR", help="the sources folder (default: sources)")
    p.add_argument("--out", required=True, metavar="DIR", help="the new folder for the masters: missing or empty")
    add_cache_dir(p)
    p.set_defaults(func=cmd_convert)


def cmd_convert(args: argparse.Namespace) -> int:
    from .core.options import Options
    from .publish import convert

    done = convert.convert(Path(args.sources), Path(args.out), Options(cache_dir=args.cache_dir))
    print("\n".join(f"{args.out}/{name}: the master of edition {edition}" for name, edition in done.masters))
    print(f"{args.out}/sources.toml lists them; build from them with `lawbook build --sources {args.out}`")
    return 0


# -- check ---------------------------------------------------------------------------------------
def add_check_command(sub: "Commands") -> None:
    p = sub.add_parser("check", help="list every reference whose target is not in the corpus",
                       description="Find every reference of the corpus whose target is not in it, grouped by "
                                   "kind and by target, each with its source file and line. Exit status 1 "
                                   "while one dangles that known-missing.toml does not list.")
    p.add_argument("--sources", default="sources", metavar="DIR", help="the sources folder (default: sources)")
    p.add_argument("--known-missing", metavar="FILE",
                   help="targets known to be outside the corpus (default: SOURCES/known-missing.toml)")
    p.add_argument("--json", action="store_true", help="print every reference as JSON")
    p.add_argument("--strict", action="store_true",
                   help="suspect references fail the check too, and so does a reading the report calls uncertain")
    add_cache_dir(p)
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    """Exit 0 when no reference dangles unexpectedly (and, with --strict, none is suspect); else 1."""
    from .publish import run
    from .corpus import check, refs, register

    from .core.options import Options

    options = Options(known_missing=args.known_missing, cache_dir=args.cache_dir)
    ctx = run.make_corpus(args.sources, options)
    corpus = ctx.frozen()  # (what the references are read from: the finished corpus, as an output reads it)
    assert ctx.sources_dir is not None  # (make_corpus was given the folder)
    known = refs.load_known_missing(ctx.sources_dir, args.known_missing)
    references = refs.references(_finished(ctx), known) + register.references(corpus.tree)  # the index's too
    failing = {"dangling"} | ({"suspect"} if args.strict else set())
    status = 1 if any(r.status in failing for r in references) else 0
    # A corpus the build would refuse (a conflict, a lost line) is not ready for print either.
    for e in ctx.log.errors:
        print(f"lawbook: error: {ctx.log.location(e.file, e.line)}: {e.message}", file=sys.stderr)
        status = 1
    if args.strict:  # two readings the evidence allows: a person must decide before the book is printed
        for e in check.uncertain(ctx.log):
            print(f"lawbook: uncertain: {ctx.log.location(e.file, e.line)}: {e.message}", file=sys.stderr)
            status = 1
    if args.json:
        print(json.dumps({"refs": [r.to_json() for r in references], "summary": check.summary(references)},
                         ensure_ascii=False, indent=1))
    else:
        print(check.render_check(references, known, _finished(ctx)))
    return status


def _tree(ctx: "CorpusContext") -> "Element":
    """The corpus tree the corpus stages made (make_corpus runs them all, so it is there)."""
    if ctx.corpus is None:
        raise LawbookError("the corpus stages made no corpus", fix="run again with --debug and report it")
    return ctx.corpus


def _finished(ctx: "CorpusContext") -> Any:
    """The corpus stages' context once they have run, as the reference records read it (refs.CorpusOf: its
    corpus and sources folder made, which the context's types leave optional while the stages run)."""
    _tree(ctx)
    return ctx


# -- diff ----------------------------------------------------------------------------------------
DIFF_FORMATS = ("html", "json", "text")


def add_diff_command(sub: "Commands") -> None:
    """Adds the `diff` subcommand."""
    p = sub.add_parser("diff", help="what changed between two editions, as a redline",
                       description="Compare two editions article by article. OLD and NEW are edition ids "
                                   "(built from --sources) or corpus.xml files from any build.")
    p.add_argument("old", metavar="OLD", help="an edition (e.g. 2007) or a corpus.xml file")
    p.add_argument("new", metavar="NEW", help="an edition (e.g. 2017) or a corpus.xml file")
    p.add_argument("--format", choices=DIFF_FORMATS, default="text",
                   help="text for the terminal (default), json for scripts, html for a page")
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--sources", default="sources", help="sources folder for edition ids (default: sources)")
    p.add_argument("--old-edition", metavar="ID", help="the edition to take from OLD when it is a corpus.xml "
                                                       "holding several")
    p.add_argument("--new-edition", metavar="ID", help="the edition to take from NEW when it is a corpus.xml "
                                                       "holding several")
    p.set_defaults(func=cmd_diff)


def cmd_diff(args: argparse.Namespace) -> int:
    from .outputs import diff

    target = None
    if args.out:  # refused before any work: a path in the sources folder, or a file that is not a diff
        from .publish.outdir import check_diff_out, write_file

        target = check_diff_out(args.out, args.sources)
    built: dict[str, Any] = {"languages": {}}
    old = resolve_edition(args.old, args.old_edition, args.sources, built, "--old-edition")
    new = resolve_edition(args.new, args.new_edition, args.sources, built, "--new-edition")
    profile = book_profile(built["languages"])
    text = diff.FORMATS[args.format](diff.compare(old, new), profile)
    if target is None:
        sys.stdout.write(text)
        return 0
    try:
        write_file(target, text)
    except OSError as e:
        raise LawbookError(f"cannot write the diff: {e.strerror}", file=args.out,
                           fix="give a --out path in a folder that exists and is writable")
    return 0


def book_profile(languages: dict[str, str | None]) -> "Profile":
    """The language profile of the book the editions come from: `languages` gives, for each corpus read
    (a corpus.xml file, or the one built from the sources folder), the language it records. The books must
    be in one language; a corpus.xml that records none (written before the corpus recorded it) is refused,
    never read in a language it may not be in."""
    from .core import lang

    unknown = [where for where, code in languages.items() if code is None]
    if unknown:
        raise LawbookError("the corpus.xml does not record the book's language (it was written by an earlier "
                           "lawbook)", file=unknown[0], status=2, fix="build it again from its sources")
    codes = sorted({code for code in languages.values() if code is not None})
    if len(codes) > 1:
        raise LawbookError(f"the editions come from books in different languages ({', '.join(codes)})", status=2,
                           fix="compare editions of one book")
    return lang.profile(codes[0])


def resolve_edition(arg: str, chosen: str | None, sources: str, built: dict[str, Any], flag: str) -> "Element":
    """The <edition> element an argument names: a corpus.xml file (its only edition, or `chosen`) or an
    edition id in the corpus built from `sources` (built once, kept in `built`). Raises LawbookError
    (status 2) for a file that is unreadable or not a corpus, and for an edition that is not there."""
    from .outputs.serialise import read_corpus

    path = Path(arg)
    if path.is_file():
        corpus = read_corpus(path)
        editions = {str(ed.get("id")): ed for ed in corpus.iterchildren("edition")}
        where = str(path)
        built["languages"][where] = corpus.get("language")
    elif re.fullmatch(r"\d{4}", arg):
        if chosen:
            raise LawbookError(f"{flag} only applies to a corpus.xml file, not to the edition id {arg}",
                               fix=f"leave out {flag}, or give a corpus.xml file")
        if "corpus" not in built:
            from .publish import run
            ctx = run.make_corpus(sources)
            built["corpus"] = _tree(ctx)
            built["languages"][f"{sources}/"] = ctx.profile.code
        editions = {str(ed.get("id")): ed for ed in built["corpus"].iterchildren("edition")}
        chosen, where = arg, f"{sources}/"
    elif path.is_dir():
        raise LawbookError("this is a folder, not a corpus.xml file", file=arg,
                           fix=f"give the corpus.xml in it (e.g. {path / 'corpus.xml'}) or an edition such as 2007")
    elif not path.exists():
        raise LawbookError("no such file, and not an edition either (an edition is its year, e.g. 2007)", file=arg,
                           fix="give the path of a corpus.xml that lawbook build wrote (e.g. build/corpus.xml), or "
                               "an edition of the book in --sources")
    else:
        raise LawbookError("this is not a regular file (a named pipe, a device …), so not a corpus.xml file", file=arg,
                           fix="give the path of a corpus.xml that lawbook build wrote, or an edition such as 2007")
    if chosen is None:
        if len(editions) != 1:
            raise LawbookError(f"the corpus holds {len(editions)} editions ({', '.join(editions) or 'none'})",
                               file=where, fix=f"say which one with {flag}")
        chosen = next(iter(editions))
    if chosen not in editions:  # the message `show` gives; a corpus.xml file is named, the sources folder not
        from .corpus import lookup

        raise lookup.unknown_edition(chosen, list(editions), where if path.is_file() else None)
    return editions[chosen]



def port_number(text: str) -> int:
    """--port: 1 to 65535, or 0 for any free port (the line `serving …` says which)."""
    port = int(text) if re.fullmatch(r"-?[0-9]+", text) else None
    if port is None or not 0 <= port <= 65535:
        shown = text if port is not None else repr(text)
        raise argparse.ArgumentTypeError(f"{shown} is not a port number (1 to 65535, or 0 for any free port)")
    return port


def add_serve_command(sub: "Commands") -> None:
    """Adds the `serve` subcommand: python -m pipeline serve [--out build] [--port 8000]."""
    p = sub.add_parser("serve", help="serve the HTML edition on 127.0.0.1 (search needs a web server)")
    p.add_argument("--out", default="build", help="the build folder whose html/ is served")
    p.add_argument("--port", type=port_number, default=8000, help="1 to 65535, or 0 for any free port")
    p.add_argument("--host-name", action="append", metavar="NAME", type=_host_name,
                   help="answer requests for NAME too (e.g. a name of this machine in /etc/hosts), besides "
                        "127.0.0.1, localhost and [::1]; any other Host is answered 421 (may be repeated)")
    p.add_argument("--watch", action="store_true",
                   help="build, then rebuild on every change in the sources folder and reload the open pages")
    p.add_argument("--sources", default="sources", help="with --watch: the folder of sources and sources.toml")
    p.add_argument("--no-pdf", action="store_true", help="with --watch: leave out the PDF edition")
    add_cache_dir(p)
    p.set_defaults(func=cmd_serve)


def _host_name(text: str) -> str:
    from . import serve

    return serve.host_name(text)


def cmd_serve(args: argparse.Namespace) -> int:
    from . import serve, watch_server  # http.server is imported only to serve

    return watch_server.cmd_watch(args) if args.watch else serve.cmd_serve(args)


# -- align ---------------------------------------------------------------------------------------
def add_align_command(sub: "Commands") -> None:
    p = sub.add_parser("align", help="compare a translation with its original, node by node",
                       description="Compare two books by citation ID: every node both hold, or that one holds "
                                   "inside a part the other shows, gets a status (match, missing, extra, "
                                   "refs-differ, notes-differ, table-differs, gap, not-in-sources, accepted). Exit "
                                   "status 1 while a node is missing, extra or differs; see docs/align.md.")
    p.add_argument("translation", metavar="TRANSLATION", help="the translation: a build folder or its corpus.json")
    p.add_argument("reference", metavar="REFERENCE", help="the original: a build folder or its corpus.json")
    p.add_argument("--json", action="store_true", help="print the nodes and dangling references as JSON")
    p.add_argument("--propose", action="store_true",
                   help="print a corrections.toml entry for each difference that can be explained")
    p.set_defaults(func=cmd_align)


def cmd_align(args: argparse.Namespace) -> int:
    from .corpus import align

    result = align.align(read_book(args.translation), read_book(args.reference))
    if args.propose:
        print(align.render_proposals(result) or "# no difference that a correction can explain")
    elif args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
    else:
        print(align.render_text(result, (args.translation, args.reference)))
    return result.status


def read_book(arg: str) -> Any:
    """The corpus.json of a build folder, or the file itself, valid against schema/corpus.schema.json."""
    from .publish import reference

    return reference.read_corpus(arg)


COMMANDS: list[Callable[["Commands"], None]] = [add_build_command, add_show_command, add_check_command, add_diff_command, add_align_command,
            add_serve_command, add_convert_command]


if __name__ == "__main__":
    sys.exit(main())
