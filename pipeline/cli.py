"""Command line: python -m pipeline (also installed as `lawbook`).

    build [--sources DIR] [--out DIR] [--force] [--no-commentary] [--no-pdf]
                                          build every output into DIR (default build/); does
                                          nothing when DIR already holds a build of these inputs
    show ID [--json]                      one node's text, notes and sources
    check [--sources DIR] [--known-missing FILE] [--json] [--strict]
                                          references whose target is not in the corpus
    diff OLD NEW [--format text|json|html] [--out FILE]
                                          what changed between two editions (ids or corpus.xml files)
    serve [--out DIR] [--port N]          serve DIR/html on 127.0.0.1 (search needs a web server)

Exit status: 0 success, 1 the build found errors, 2 bad usage or unreadable input.
Errors are one message naming the file and line; --debug shows the traceback.
"""
import argparse
import json
import os
import sys

from . import cache, diff, graph, ids, outdir, serialise, serve, tree
from .errors import LawbookError


def main(argv=None):
    parser = argparse.ArgumentParser(prog="lawbook", description="Publishing pipeline for the Spelregels voor "
                                                                  "Wedstrijdbridge")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("build", help="build all outputs from the sources")
    p.add_argument("--sources", default="sources")
    p.add_argument("--out", default="build")
    p.add_argument("--force", "--no-cache", dest="force", action="store_true",
                   help="rebuild everything: ignore the previous build and the cache")
    p.add_argument("--no-commentary", action="store_true",
                   help="leave commentary out of the PDF edition, as in the official print")
    p.add_argument("--no-pdf", action="store_true", help="leave out the PDF edition (a quicker preview)")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("show", help="show one node of the corpus")
    p.add_argument("id", help="e.g. 2017/50D2a")
    p.add_argument("--json", action="store_true")
    p.add_argument("--sources", default="sources")
    p.set_defaults(func=cmd_show)

    for register in EXTRA_COMMANDS:
        register(sub)

    args = parser.parse_args(argv)
    try:
        return args.func(args) or 0
    except LawbookError as e:
        if args.debug:
            raise
        # A failed build names each error first (FILE:LINE: message), then what happened and what to do.
        for entry in getattr(e, "errors", ()):
            where = f"{entry.file}:{entry.line}" if entry.line else f"{entry.file}"
            print(f"lawbook: error: {where}: {entry.message}", file=sys.stderr)
        print(f"lawbook: error: {e}", file=sys.stderr)
        return e.status
    except BrokenPipeError:  # the reader went away (`lawbook check | head`): nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
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
        where = f"{e.filename}: " if e.filename else ""
        print(f"lawbook: error: {where}{e.strerror or e}\n  fix: check the path, its permissions and the free "
              f"disk space, then run again", file=sys.stderr)
        return 2
    except Exception as e:  # a bug: still one message, the traceback with --debug
        if args.debug:
            raise
        print(f"lawbook: internal error: {type(e).__name__}: {e}\n  fix: run again with --debug and report it",
              file=sys.stderr)
        return 2


# Each registers its own subcommand: check, diff, serve.
EXTRA_COMMANDS = [graph.register, diff.register, serve.register]


def cmd_build(args):
    """Build into --out. A build that finds errors raises BuildFailed (status 1): main prints each
    error as FILE:LINE: message, and --out is left as it was. An --out that is not the build's own
    (outdir.check_target) is refused before anything is read."""
    options = {"debug": args.debug, "force": args.force, "no_commentary": args.no_commentary,
               "no_pdf": args.no_pdf}
    outdir.check_target(args.out, args.sources)
    if cache.up_to_date(args.sources, args.out, options):
        print(f"{args.out}/ is up to date")
        return 0
    from . import build as build_mod  # the stages are imported only when there is work to do

    ctx = build_mod.build(args.sources, args.out, options)
    summary = ", ".join(f"{v} {k}" for k, v in ctx.log.summary().items() if v)
    print(f"built {args.out}/ from {len(ctx.sources)} sources: {summary}")
    return 0


def cmd_show(args):
    if not ids.is_well_formed(args.id):
        raise LawbookError(f"{args.id!r} is not an ID", fix="give an edition and a citation, e.g. 2017/50D2a")
    from . import build as build_mod

    ctx = build_mod.make_corpus(args.sources)
    el = tree.node_by_id(ctx.corpus, args.id)
    if el is None:
        raise LawbookError(f"{args.id} is not in the corpus",
                           fix="see build/corpus.xml for the IDs there are", status=1)
    data = node_summary(el)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        print(render_text(el))
    return 0


def node_summary(el):
    """The `show --json` object: id, title, text, notes, children, sources."""
    if el.tag == "note":
        return {"id": el.get("id"), "type": "note", "title": "", "text": tree.plain_text(el), "notes": [],
                "children": [], "sources": serialise._sources(el)}
    label = tree.label(el)
    own = [c for c in el if c.tag == "p"]
    notes = [{"id": n.get("id"), "text": tree.plain_text(n), "form": n.get("form")}
             for p in own for n in p.iter("note")]
    data = {
        "id": el.get("id"),
        "type": el.tag,
        "title": label.text if label is not None else "",
        "text": "\n\n".join(tree.plain_text(p) for p in own),
        "notes": notes,
        "children": [c.get("id") for c in tree.child_nodes(el)],
        "sources": serialise._sources(el),
    }
    if el.get("numbering"):
        data["numbering"] = {"inferred": True, "evidence": el.get("evidence")}
    gaps = [g.get("reason") for g in el.iterchildren("gap")]
    if gaps:
        data["gaps"] = gaps
    if el.tag == "commentary":
        data.update({"on": el.get("on"), "author": el.get("author"), "title": el.findtext("attribution")})
    return data


def render_text(el, depth=0):
    """A node and everything below it as indented plain text, notes numbered [1], [2] …"""
    pad = "  " * depth
    out = []
    label = tree.label(el)
    head = el.get("id") or el.tag
    out.append(f"{pad}{head}" + (f"  {label.text}" if label is not None else ""))
    notes = []
    for child in el:
        if child.tag == "p":
            parts = []
            for kind, words, sub in tree.inline(child):
                if kind == tree.NOTE:
                    notes.append(sub)
                    parts.append(f"[{len(notes)}]")
                else:
                    parts.append(words)
            out.append(f"{pad}  {''.join(parts)}")
        elif child.tag == "gap":
            out.append(f"{pad}  [gap: {child.get('reason')}]")
        elif child.tag in tree.NODE_TAGS:
            out.append(render_text(child, depth + 1))
    for n, note in enumerate(notes, 1):
        out.append(f"{pad}  [{n}] {note.get('id')}: {tree.plain_text(note)}")
    if depth == 0:
        out.append(f"sources: {el.get('sources')}")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
