"""What the PDF's fonts cannot set, found before compiling (glyphs.py): each problem a report entry
at the source line that holds it, in the law text (unprintable) and in the colophon's file names and
origins (unprintable_sources).

Reads: an <edition>, the source lines, sources.toml. Writes nothing.
"""
from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path

from ...core import tree
from ...core.tree import Element
from ...core.view import element_id
from ...reading.manifest import Source
from .. import glyphs

# A report entry: (file, line, node, message).
Entry = tuple[str | None, int | None, str | None, str]


def unprintable(edition: Element, lines: Mapping[tuple[str, int], str]) -> list[Entry]:
    """Report entries (file, line, node, message) for the text of `edition` the compiler cannot set
    (see glyphs.py): a character no font has, a letter with too many marks, an overlong word or
    heading. Each names the source line that holds it, found in `lines` ({(file, number): text})
    among the lines the element records; one entry per problem and line."""
    found: dict[tuple[str | None, int | None, str], Entry] = {}
    for el in edition.iter():
        runs = [el.text] + [child.tail for child in el]
        runs += [el.get(attr) for attr in ("num", "author")]
        for text in filter(None, runs):
            problems = glyphs.problems(text)
            if el.tag in ("title", "heading") and len(text) > glyphs.MAX_HEADING:
                problems.append((0, f"a heading of {len(text):,} characters, longer than the "
                                    f"{glyphs.MAX_HEADING:,} a PDF bookmark can hold", "shorten the heading"))
            for offset, message, fix in problems:
                # The word from the problem on, else the character alone (a repair changed the word).
                file, line, column = _locate(el, (text[offset:offset + 40].split(" ")[0], text[offset]), lines)
                key = (file, line, message)
                if key not in found:
                    node = next((element_id(a) for a in (el, *el.iterancestors())
                                 if a.tag in tree.NODE_TAGS or a.tag == "commentary"), None)
                    at = f" (column {column})" if column else ""
                    found[key] = (file, line, node, f"{message}{at}; {fix}, or build without the PDF (--no-pdf)")
    return list(found.values())


def unprintable_sources(sources: Sequence[Source], manifest_path: str | PathLike[str]) -> list[Entry]:
    """Report entries (file, line, None, message), as unprintable gives them, for what the colophon prints
    from `sources` (manifest entries) and the compiler cannot set: each source's description, the
    publisher and the copyright line, each at the line of `manifest_path` (sources.toml) that holds it."""
    try:
        text_lines = Path(manifest_path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeError):
        text_lines = []
    found: dict[tuple[int | None, str], Entry] = {}
    book = sources[:1]  # the publisher and the copyright line are the book's: every source carries them
    printed = [(source.description, f"the description of {source.name!r}") for source in sources]
    printed += [(getattr(source, key, ""), f"the manifest's {key}") for source in book for key in ("publisher", "copyright")]
    for value, what in printed:
        for offset, message, fix in glyphs.problems(value or ""):
            snippet = value[offset:offset + 40].split(" ")[0] or value[offset]
            line = next((n for n, t in enumerate(text_lines, 1) if snippet in t or value[offset] in t), None)
            column = text_lines[line - 1].find(value[offset]) + 1 if line else 0
            at = f" (column {column})" if column else ""
            found.setdefault((line, message), (Path(manifest_path).name, line, None,
                                               f"{what}, printed in the PDF's colophon: "
                                               f"{message}{at}; {fix}, or build without the PDF (--no-pdf)"))
    return list(found.values())


def _locate(el: Element, snippets: Sequence[str],
            lines: Mapping[tuple[str, int], str]) -> tuple[str | None, int | None, int | None]:
    """(file, line, column) of the first source line of `el` (or the element around it that records
    sources) holding the first of `snippets` any line holds; the element's first line, without a
    column, when none does."""
    for holder in (el, *el.iterancestors()):
        sources = tree.parse_sources(holder.get("sources"))
        if sources:
            break
    else:
        return None, None, None
    for snippet in snippets:
        for name in sorted(sources):
            for num in sorted(sources[name]):
                column = lines.get((name, num), "").find(snippet)
                if column >= 0:
                    return name, num, column + 1
    name = sorted(sources)[0]
    return name, min(sources[name]), None

