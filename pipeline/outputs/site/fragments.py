"""The law text of a page as HTML (Fragments): a paragraph's pieces, a node with its nested nodes, the
mark of a renumbered node; the templates call them as inline(), content() and renumbered().

Reads: the piece and node views of model.py. Writes nothing.
"""
from markupsafe import Markup, escape

from ...core.lang import Profile

# The heading level of a node below the article (h1).
LEVELS = {"section": 2, "subsection": 3, "item": 4, "subitem": 5}


class Fragments:
    """The law text of a page as HTML, written in Python: a paragraph's pieces (`inline`), a node's
    blocks with its nested nodes (`content`) and the mark of a renumbered node (`renumbered`), the
    templates' globals of those names. They were jinja2 macros; a macro call per piece and per node
    went through jinja2's runtime (half the site's rendering), so the same markup is joined here
    instead, byte for byte: every value escaped as the templates' autoescape escapes it, every word
    the profile's, formatted in as the templates' _() does (the words trusted, the values escaped)."""

    def __init__(self, profile: Profile):
        self.profile = profile
        self._words = {}

    def word(self, english, **values):
        """What the templates' _(english, **values) gives under autoescape: the profile's words as
        markup, % the escaped values (even with none, so %% is one %)."""
        # Kept by the words and the values when every value is a plain str or int (escaped the same
        # whenever equal): a page names the same articles again and again. Anything else is formatted anew.
        key = (english, *values.items()) if all(type(v) in (str, int) for v in values.values()) else None
        said = self._words.get(key) if key is not None else None
        if said is None:
            said = Markup(self.profile.word(english)) % values
            if key is not None:
                if len(self._words) >= 1 << 16:  # one environment serves every build of a process
                    self._words.clear()
                self._words[key] = said
        return said

    def inline(self, pieces):
        """The inline text of a paragraph, note or attribution: text, references, note markers and the
        words a correction of the laws committee put there (marked, the mark linking to the editor's page)."""
        out = []
        for piece in pieces:
            if "corr" in piece:
                corr = piece["corr"]
                said = self.word("corrected by the laws committee against the original; the sources say: "
                                 "‘%(was)s’; basis: %(basis)s", was=corr["was"], basis=corr["basis"])
                out.append(f'<span class="corr" id="{escape(corr["anchor"])}" title="{said}">'
                           f'{self.inline(piece["pieces"])}</span><a class="corr-mark" href="{escape(corr["href"])}"'
                           f' title="{said}" aria-label="{self.word("correction: what the sources say")}"></a>')
            elif "note" in piece:
                anchor = escape(piece["anchor"])
                out.append(f'<sup class="noteref"><a id="ref-{escape(piece.get("marker", piece["anchor"]))}" href="#{anchor}" role="doc-noteref" '
                           f'aria-label="{self.word("note %(number)s", number=piece["number"])}">'
                           f'{escape(piece["number"])}</a></sup>')
            elif "ref" in piece and piece["href"]:
                suspect = " suspect" if piece["status"] == "suspect" else ""
                title = f' title="{escape(piece["title"])}"' if piece["title"] else ""
                out.append(f'<a class="ref{suspect}" href="{escape(piece["href"])}"{title}>{escape(piece["ref"])}</a>')
            elif "ref" in piece:
                out.append(f'<span class="ref missing" title="{escape(piece["title"])}">{escape(piece["ref"])}</span>')
            else:
                out.append(escape(piece["text"]))
        return Markup("".join(out))

    def label(self, node):
        """The label that names a node: its citation, linkable, marked when the numbering is inferred."""
        out = [f'<a class="cite" href="#{escape(node["cite"])}">{escape(node["shown"])}</a>']
        if node["inferred"]:
            inferred = self.word("numbering inferred")
            out.append(f'<abbr class="inferred" title="{inferred}" aria-label="{inferred}"></abbr>')
        if node["renumbered"]:
            out.append(self.renumbered(node["renumbered"]))
        return "".join(out)  # markup: joined as text (Markup + str would escape the str)

    def renumbered(self, corr):
        """A node a correction renumbered: its number in the sources, small, linking to the editor's page entry."""
        title = self.word("renumbered by the laws committee against the original; the sources number it "
                          "%(cite)s; basis: %(basis)s", cite=corr["was_cite"], basis=corr["basis"])
        return Markup(f'<a class="corr-mark renumbered" id="{escape(corr["anchor"])}" href="{escape(corr["href"])}" '
                      f'title="{title}">{self.word("was %(cite)s", cite=corr["was_cite"])}</a>')

    def content(self, node):
        """The content of a node: paragraphs, editorial gap remarks and nested nodes, in source order,
        each on its own line."""
        out = []
        for block in node["content"]:
            if block["kind"] == "p":
                out.append(f'<p>{self.inline(block["pieces"])}</p>\n')
            elif block["kind"] == "gap":
                reason = escape(block["reason"]) if block["reason"] else self.word("text is missing from the sources here")
                out.append(f'<p class="gap" role="note"><span class="gap-label">{self.word("Editorial note:")}</span> '
                           f'{reason}</p>\n')
            else:
                out.append(f'{self.child(block["node"])}\n')
        return Markup("".join(out))

    def child(self, node):
        level, cite = LEVELS[node["tag"]], escape(node["cite"])
        words = self.inline(node["heading_pieces"]) if node.get("heading_pieces") else escape(node["heading"] or "")
        heading = f' <span class="heading">{words}</span>' if words else ""
        return (f'<section class="{escape(node["tag"])}" id="{cite}" aria-labelledby="h-{cite}">\n'
                f'<h{level} id="h-{cite}">{self.label(node)}{heading}</h{level}>\n{self.content(node)}\n</section>')

