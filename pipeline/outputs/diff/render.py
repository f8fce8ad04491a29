"""The comparison of two editions as JSON, HTML (a redline "in renvooi") and terminal text.

Reads: the dict from compare.Comparison.run(), and for HTML and text the book's language profile:
the page's words and lang. The terminal text is English, the command line's language, citing
places as the profile does.
Writes: strings only. Guarantees: the same comparison always gives the same bytes (no dates, no
unordered sets).
"""
import functools
from pathlib import Path
from typing import Any

import jinja2

from ...core.lang import Profile
from ...core.jsonio import json_text
from .. import text
from ..text import say


TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def to_json(result: dict[str, Any]) -> str:
    return json_text(result) + "\n"


def node_name(node: dict[str, Any], profile: Profile) -> str:
    """How a node is cited to a reader: '24D', or '24 (aanhef)' for an article's opening text."""
    c = node["new"] or node["old"]
    return opening(c, profile) if node["level"] == "article" else c


def opening(cite: str, profile: Profile) -> str:
    """The opening text of article `cite`: '24 (aanhef)'."""
    return say(profile, "%(cite)s (opening words)", cite=cite)


def place(cite: str, profile: Profile) -> str:
    """A citation as a place in the text: an article citation alone means its opening text."""
    return opening(cite, profile) if cite.isdigit() else cite


def targets(cites: list[str], profile: Profile) -> str:
    return profile.word(" and ").join(cites) if cites else "—"


@text.per_profile
def environment(profile: Profile) -> jinja2.Environment:
    """The jinja2 environment over templates/, its words and lang from `profile`; once per process and
    profile (templates compiled once)."""
    env = text.environment(__file__, [TEMPLATES], profile, trim_blocks=True, lstrip_blocks=True)
    env.filters.update(node_name=functools.partial(node_name, profile=profile),
                       place=functools.partial(place, profile=profile),
                       targets=functools.partial(targets, profile=profile))
    return env


def to_html(result: dict[str, Any], profile: Profile) -> str:
    """A self-contained page: summary table, changed references, then one block per article (id art-N),
    in the words of `profile`."""
    references = [r for a in result["articles"] for r in a["changes"]["references"]]
    labels = {status: say(profile, words, old=result["old"], new=result["new"]) for status, words in STATUS.items()}
    return environment(profile).get_template("diff/redline.html").render(diff=result, labels=labels,
                                                                          references=references)


# What an article's badge says (profile words; old and new are the editions).
# An article in one edition's sources only is not called new or dropped: the sources may hold part
# of an edition, so only "not comparable" is certain.
# Keyed by the summary's keys: JSON, text and HTML say the same of every article.
STATUS = {"changed": "changed", "accents_spacing": "accents or spacing only", "unchanged": "unchanged",
          "missing_from_old": "not comparable: missing from the sources of %(old)s",
          "missing_from_new": "not comparable: missing from the sources of %(new)s", "renumbered": "renumbered"}


def status_key(article: dict[str, Any], old: str) -> str:
    """The STATUS key of an article of the comparison of `old` with another edition."""
    if article["status"] == "accents-spacing":
        return "accents_spacing"
    if article["status"] != "not-comparable":
        status: str = article["status"]
        return status
    return "missing_from_old" if article["missing_from"] == old else "missing_from_new"


# -- text ---------------------------------------------------------------------------------------------
def segments_text(segs: list[dict[str, Any]], profile: Profile) -> str:
    """Segments as git-style word diff: [-struck-] {+inserted+}, moved text as [-…-]→24D and ←24{…}, a
    change of accents or spacing only as {~old~>new~}."""
    out = []
    for s in segs:
        op = s["op"]
        if op == "equal":
            out.append(s["text"])
        elif op == "form":  # accents or spacing only
            out.append(f"{{~{s['old']}~>{s['text']}~}}")
        elif op == "delete":
            out.append(f"[-{s['text']}-]")
        elif op == "insert":
            out.append(f"{{+{s['text']}+}}")
        elif op == "moved-out":
            out.append(f"[-{s['text']}-](moved to {place(s['to'], profile)})")
        elif op == "moved-in":
            out.append(f"(moved from {place(s['from'], profile)}: {segments_text(s['segments'], profile)})")
        elif op == "note":
            mark = {"added": "+", "removed": "-"}.get(s["status"], "")
            out.append(f"[{mark}note: {segments_text(s['segments'], profile)}]")
    return "".join(out)


def to_text(result: dict[str, Any], profile: Profile) -> str:
    """The comparison for a terminal: summary, then per changed article its changes and its redline,
    citing places as `profile` does."""
    old, new, summary = result["old"], result["new"], result["summary"]
    missing = {"missing_from_old": f"not comparable, missing from the sources of {old}",
               "missing_from_new": f"not comparable, missing from the sources of {new}"}
    lines = [f"Editions {old} → {new}",
             f"articles: {len(summary['changed'])} changed, {len(summary['accents_spacing'])} accents or spacing "
             f"only, {len(summary['unchanged'])} unchanged, "
             f"{len(summary['missing_from_old']) + len(summary['missing_from_new'])} not comparable"]
    for key, label in (("changed", "changed"), ("accents_spacing", "accents or spacing only"),
                       ("unchanged", "unchanged"), *missing.items()):
        if summary[key]:
            lines.append(f"  {label}: {', '.join(summary[key])}")
    for pair in summary["renumbered"]:
        lines.append(f"  renumbered: {pair[0]} → {pair[1]}")
    for article in result["articles"]:
        if article["status"] not in ("changed", "accents-spacing", "renumbered"):
            continue
        ch = article["changes"]
        lines += ["", f"Article {article['new']}: {article['title']}"]
        if ch["title"]:
            lines.append(f"  title: {ch['title']['old']!r} → {ch['title']['new']!r}")
        # A part in one edition's sources only, in the words of the HTML's badge: the sources may hold part
        # of an edition, so "only in the sources of", never "new" or "dropped".
        for key, label in (("added", f"only in the sources of {new}"), ("removed", f"only in the sources of {old}"),
                           ("changed", "changed"), ("accents_spacing", "accents or spacing only")):
            if ch["sections"][key]:
                lines.append(f"  {label}: {', '.join(ch['sections'][key])}")
        for a, b in ch["sections"]["renumbered"]:
            lines.append(f"  renumbered: {a} → {b}")
        for ref in ch["references"]:
            lines.append(f"  reference in {place(ref['node'], profile)}: {targets(ref['old'], profile)} → "
                         f"{targets(ref['new'], profile)}")
        for move in ch["moved"]:
            lines.append(f"  moved: {place(move['from'], profile)} → {move['to']} (similarity {move['similarity']:.2f}): "
                         f"{move['new']!r}")
        lines.append("")
        lines += node_text_lines(article, 1, old, new, profile)
    return "\n".join(lines) + "\n"


# A table row's mark in the text: the same in both editions, changed in place, only new, struck.
ROW_MARKS = {"equal": " ", "changed": "~", "insert": "+", "delete": "-"}


def table_text_lines(table: dict[str, Any], pad: str, profile: Profile) -> list[str]:
    """A table of the comparison (segments.table_diff) as text: a line that says what became of it, then a
    row a line, marked (ROW_MARKS), its cells' word diffs between bars."""
    return [f"{pad}  table ({table['status']}):"] + [
        f"{pad}  {ROW_MARKS[row['op']]} | " + " | ".join(segments_text(cell, profile) for cell in row["cells"]) + " |"
        for row in table["rows"]]


def node_text_lines(node: dict[str, Any], depth: int, old: str, new: str, profile: Profile) -> list[str]:
    """The redline of one node and its changed children, indented."""
    pad = "  " * depth
    out = []
    if node["status"] != "unchanged":
        head = node["new"] or node["old"]
        if node["renumbered"]:
            head = f"{node['old']} → {node['new']}"
        label = segments_text(node["label"]["segments"], profile) if "label" in node else ""
        status = {"changed": "", "accents-spacing": " [accents or spacing only]", "added": f" [only in the sources of {new}]",
                  "removed": f" [only in the sources of {old}]"}.get(node["status"], f" [{node['status']}]")
        out.append(f"{pad}{head}{status}  {label}".rstrip())
        tables = node.get("tables", [])
        for k, p in enumerate(node["paragraphs"]):
            out += [line for t in tables if t["after"] == k for line in table_text_lines(t, pad, profile)]
            out.append(f"{pad}  {segments_text(p, profile)}")
        out += [line for t in tables if t["after"] >= len(node["paragraphs"])
                for line in table_text_lines(t, pad, profile)]
    for child in node["children"]:
        out += node_text_lines(child, depth + 1, old, new, profile)
    return out
