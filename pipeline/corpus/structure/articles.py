"""The nodes of one shown article built from its blocks: numbering restored from the evidence and the
indentation, every block placed once (ArticleBuilder).
"""
import bisect
from collections.abc import Iterable
from typing import NoReturn


from ...core import ids, tree
from ...core.model import CLOSES_LIST, NO_LEAD_IN, Accounted, Block, Placed, Rules
from ...core.report import FileLog
from ...core.tree import Element
from ...reading.formats.common import is_heading_like
from .fragment import Fragment
from .evidence import CONFIRMED, Evidence, INDENTED, RelativePlaces, UNCONFIRMED
from .parts import table_element, table_lines


LEVEL_INDEX = {level: i for i, level in enumerate(ids.LEVELS)}


class ArticleBuilder:
    """Builds the nodes of one shown article (or part of one) from its blocks."""

    def __init__(self, fragment: Fragment, flog: FileLog, evidence: Evidence, rules: Rules, article_el: Element,
                 anchor_block: Block) -> None:
        self.fragment = fragment
        self.flog = flog
        self.evidence = evidence
        self.rules = rules
        self.article = article_el
        self.article_lines: set[int] = set()
        self.open: dict[str, Element] = {"article": article_el}  # the open node at each level
        self.context = article_el  # deepest node opened by the page anchor or a heading
        self.anchor_lines = anchor_block.lines
        self.heading_sections: set[str] = set()  # sections numbered from the order of lone headings
        self.relative: RelativePlaces | None = None  # the showing's lines, indexed when a node first asks
        self.numbers: dict[Element, _Numbers] = {}  # each parent's children, by number (node())

    # -- nodes ----------------------------------------------------------------
    def node(self, parent: Element, level: str, num: str, block: "Block | _AnchorBlock", how: str,
             basis: str | None = None) -> Element:
        """The new child `num` at `level` below `parent`; `how` is 'source' or 'inferred'. A child that exists
        already, or a higher sibling, is a structure error (the rest of the showing is set aside)."""
        if past := ids.too_long(num, level):  # a list or a heading numbered so far: refused by its line (run())
            raise past
        numbers = self.numbers.get(parent)
        if numbers is None:
            numbers = self.numbers[parent] = _Numbers(parent)
        existing = numbers.child(num)
        later = numbers.after(level, num)
        other = existing if existing is not None else later
        if other is not None:
            node_id = ids.child_id(tree.attr(parent, "id"), num)
            first = min(self.fragment.node_lines.get(tree.attr(other, "id"), [block.first_line]))
            self.structure_error(block.first_line,
                                 (f"{node_id} begins a second time at line {block.first_line} (first at line {first})"
                                  if existing is not None else
                                  f"{node_id} at line {block.first_line} comes after {other.get('id')} (line {first})")
                                 + ", but numbering does not go back inside one article")
        el = numbers.add(level, num, ids.child_id(tree.attr(parent, "id"), num))
        if how == "inferred":
            el.set("numbering", "inferred")
            if set(block.lines) <= self.article_lines:  # the showing's lines: indexed once for all its nodes
                if self.relative is None:
                    self.relative = RelativePlaces((self.fragment.file, n) for n in self.article_lines)
                places = self.relative
            else:  # the page anchor's lines too, for this node alone
                places = RelativePlaces((self.fragment.file, n) for n in self.article_lines | set(block.lines))
            found = self.evidence.find(places, tree.attr(el, "id"), level, num)
            message = f"{level} {num} of {parent.get('id')} inferred from {basis}"
            message += CONFIRMED + ", ".join(found) if found else UNCONFIRMED
            el.set("evidence", message)
            self.flog.inference(block.first_line, el.get("id"), message)
        if origin := getattr(block, "origin", None):  # (a Markdown master's record of the node's first source)
            el.set("origin", origin)
        if how == "source" and (recorded := getattr(block, "evidence", None)):  # inferred when it was first read
            el.set("numbering", "inferred")
            el.set("evidence", recorded)
            self.flog.inference(block.first_line, el.get("id"), recorded)
        self.open[level] = el
        for deeper in ids.LEVELS[LEVEL_INDEX[level] + 1:]:
            self.open.pop(deeper, None)
        self.touch(el, block.lines)
        return el

    def structure_error(self, line: int, what: str) -> NoReturn:
        """Numbering that contradicts itself inside one showing of an article: the sign that the text
        of another article was read into this one. Reported once, then raises _Derailed: run() sets the
        rest of the showing aside, so that nothing of it is read into the wrong article."""
        self.flog.error(line, f"{what}: the text from here on is probably another article's, whose heading line "
                              f"was not recognised, and is set aside; check the lines above for a damaged article "
                              f"heading", self.article.get("id"))
        raise _Derailed(line)

    def touch(self, el: Element, lines: Iterable[int]) -> None:
        """Record that `lines` belong to `el` (and so to all its ancestors)."""
        for ancestor in [el] + list(el.iterancestors()):
            if ancestor.tag in tree.NODE_TAGS:
                self.fragment.node_lines.setdefault(tree.attr(ancestor, "id"), set()).update(lines)
        placed = Placed(tree.attr(el, "id"))
        for n in lines:
            self.fragment.ledger[n] = placed

    def deepest_open(self) -> Element:
        """The deepest open node: the article at least, which stays open (only levels below one close)."""
        for level in reversed(ids.LEVELS):
            if level in self.open:
                return self.open[level]
        raise ValueError(f"no node of {self.article.get('id')} is open, not even the article")

    def paragraph(self, el: Element, block: Block, tag: str = "p") -> None:
        if not block.text and not block.notes:
            return
        el.append(tree.make_paragraph(block.text, block.notes, self.fragment.file, block.lines, tag))
        self.touch(el, block.lines + [n for note in block.notes for n in note.lines])

    def table(self, el: Element, block: Block) -> None:
        """A table block in the node open where it stands, after what that node holds so far (in order among
        its paragraphs); its lines, its rows' and its notes' are the node's."""
        made = table_element(block, self.fragment.file, self.flog, el.get("id"))
        if made is None:
            return self.paragraph(el, block)
        el.append(made)
        self.touch(el, table_lines(block))

    def heading(self, el: Element, block: Block, tag: str = "heading") -> None:
        if el.find(tag) is not None:
            self.flog.damage(block.first_line, f"{el.get('id')} has a second {tag}", "kept as a paragraph")
            return self.paragraph(el, block)
        # A note marked in the title or heading stays there, where the book marks it ("… CARDS²").
        h = tree.make_paragraph(block.text, block.notes, self.fragment.file, block.lines, tag)
        # Heading first, before any paragraph or child.
        el.insert(0, h)
        self.touch(el, block.lines + [n for note in block.notes for n in note.lines])

    # -- blocks ---------------------------------------------------------------
    def anchor(self, cite: str, blocks: list[Block]) -> list[Block]:
        """The page anchor "Artikel 50D": open its section/subsection; the next line may be its heading."""
        parts = ids.parse_citation(cite)
        if parts is None:
            raise ValueError(f"the page anchor {cite!r} is no citation: build_fragment sets such an article aside")
        anchor_block = blocks[0] if blocks else None
        if parts["section"]:
            sec = self.node(self.article, "section", parts["section"], _AnchorBlock(self.anchor_lines), "source")
            self.context = sec
            if parts["subsection"]:
                self.context = self.node(sec, "subsection", parts["subsection"], _AnchorBlock(self.anchor_lines),
                                         "source")
            if anchor_block is not None and anchor_block.kind == "heading":
                heading_cite = _heading_cite(anchor_block)  # (a run-in heading follows its list entry, never an anchor)
                letter, digits = heading_cite[0], heading_cite[1:]
                if letter != parts["section"] or (digits and digits != (parts["subsection"] or "")):
                    self.flog.damage(anchor_block.first_line,
                                     f"heading '{anchor_block.cite}.' does not match the page anchor 'Artikel {cite}'",
                                     "the anchor's number is used")
                self.heading(sec, anchor_block)
                if digits:
                    self.flog.inference(anchor_block.first_line, sec.get("id"),
                                        f"'{anchor_block.cite}. {anchor_block.text}' read as the heading of section "
                                        f"{letter}, followed by subsection {letter}{digits}")
                return blocks[1:]
            return blocks
        if anchor_block is not None and anchor_block.kind in ("para", "title") and is_heading_like(anchor_block.text):
            self.heading(self.article, anchor_block, tag="title")
            return blocks[1:]
        return blocks

    def run(self, cite: str, blocks: list[Block]) -> None:
        blocks = self.anchor(cite, blocks)
        self.base = self.context
        for block in blocks:
            self.article_lines.update(block.lines)
        groups = _groups(blocks)
        try:
            for group in groups:
                if self._group_as_subsections(group):
                    continue
                for block in group:
                    try:
                        self.block(block, single=len(group) == 1)
                    except ids.NumberPastLetters as past:  # section 27: refused by its line, the rest set aside
                        self.flog.error(block.first_line, f"{past}; split the list or number it as the book does",
                                        self.article.get("id"))
                        raise _Derailed(block.first_line) from None
        except _Derailed as derailed:
            # The rest of this showing is set aside, from the block that derailed it on (never guessed into
            # this article); the error names the line.
            reason = Accounted(f"set aside after the structure error at line {derailed.line} (error)")
            rest = [b for b in blocks if b.first_line >= derailed.line]
            for block in rest:
                self.fragment.ledger.update({n: reason for n in block.lines + [n for note in block.notes
                                                                                  for n in note.lines]})

    def block(self, block: Block, single: bool) -> None:
        if block.kind == "title":
            return self.heading(self.article, block, tag="title")
        if block.kind == "heading":
            if block.cite is None:  # a run-in heading of the node just opened (headings.py)
                return self.heading(self.deepest_open(), block)
            letter, digits = block.cite[0], block.cite[1:]
            sec = self.node(self.article, "section", letter, block, "source")
            if block.text:  # (a section the book gives no heading: Laws 35 and 56)
                self.heading(sec, block)
            self.context = sec
            if digits:
                self.context = self.node(sec, "subsection", digits, block, "source")
            return
        if block.kind == "list":
            return self.list_entry(block)
        if block.kind == "table" and block.cite is None:  # in the node open here, among its paragraphs
            return self.table(self.deepest_open(), block)
        if block.kind == "table" and block.cite != CLOSES_LIST:
            return self.text_of(block)
        if block.kind == "table":  # standing on its own after a list's last entry, as a paragraph may
            return self.closing_paragraph(block)
        # A lone heading-like line in an article shown whole, without numbers: the next section.
        if (self.rules.headings_are_sections and single and self.base.tag == "article" and is_heading_like(block.text)
                and not block.notes and self.article.find("title") is not None):
            sections = [c for c in tree.child_nodes(self.article) if c.tag == "section"]
            numbered = [n for n in (tree.attr(c, "num") for c in sections) if n not in self.heading_sections]
            if numbered:
                # Sections numbered in the source and then one without a number: not a section of this article.
                self.structure_error(block.first_line,
                                     f"{block.text!r} stands alone like a section heading, but the sections of "
                                     f"{self.article.get('id')} are numbered in the source ({', '.join(numbered)})")
            num = ids.letter_for(len(sections) + 1, "section")
            sec = self.node(self.article, "section", num, block,
                            "inferred", "the order of the headings (the source has no letters)")
            self.heading_sections.add(num)
            self.heading(sec, block)
            self.context = sec
            return
        if block.cite == CLOSES_LIST:
            return self.closing_paragraph(block)
        if block.cite is not None:  # text the source gives to a node by its citation (a Markdown master)
            return self.text_of(block)
        self.paragraph(self.deepest_open(), block)

    def text_of(self, block: Block) -> None:
        """A paragraph or table the source says is text of an open node ("<!-- text of 12C -->" after 12C's
        children): placed there, after them; the nodes below it are closed."""
        target = ids.join(self.fragment.edition, str(block.cite))
        level = next((lvl for lvl, el in self.open.items() if el.get("id") == target), None)
        if level is None:
            self.structure_error(block.first_line, f"the text at line {block.first_line} is given to {target}, "
                                                   "which is not open there")
        for deeper in ids.LEVELS[LEVEL_INDEX[level] + 1:]:
            self.open.pop(deeper, None)
        (self.table if block.kind == "table" else self.paragraph)(self.open[level], block)

    def closing_paragraph(self, block: Block) -> None:
        """A paragraph the reader found after the last entry of a list (model.CLOSES_LIST, its level the
        list's): text of the list's parent, which it applies to, not of the last entry."""
        index = LEVEL_INDEX[self.context.tag] + 1 + block.level
        parent = self.open.get(ids.LEVELS[index - 1]) if 0 < index <= len(ids.LEVELS) else None
        last = self.open.get(ids.LEVELS[index]) if index < len(ids.LEVELS) else None
        place = self.table if block.kind == "table" else self.paragraph  # (a table may close a list too)
        if parent is None or last is None:
            return place(self.deepest_open(), block)
        what = "table" if block.kind == "table" else "paragraph"
        self.flog.inference(block.first_line, parent.get("id"),
                            f"the {what} at line {block.first_line} stands on its own after {last.get('id')}, the "
                            f"last entry of its list: read as text of {parent.get('id')}, which the list belongs to")
        for deeper in ids.LEVELS[index:]:
            self.open.pop(deeper, None)
        place(parent, block)

    def list_entry(self, block: Block) -> None:
        base = LEVEL_INDEX[self.context.tag]
        index = base + 1 + block.level
        if index >= len(ids.LEVELS) or ids.LEVELS[index] not in self.rules.list_numbers:
            self.flog.damage(block.first_line, f"list number {block.number}. nested deeper than an item",
                             "kept as a paragraph with its number")
            block.text = f"{block.number}. {block.text}"
            return self.paragraph(self.deepest_open(), block)
        level = ids.LEVELS[index]
        parent = self.open.get(ids.LEVELS[index - 1])
        if parent is None:
            self.flog.damage(block.first_line, f"list number {block.number}. at {level} level without a parent",
                             "kept as a paragraph with its number")
            block.text = f"{block.number}. {block.text}"
            return self.paragraph(self.deepest_open(), block)
        number = _list_number(block)
        num = str(number) if level == "subsection" else ids.letter_for(number, level)
        # Whether this layout writes a list number at this level as the node's number, or the number
        # stands for a letter it did not write ("1." directly under an article: section A).
        how = self.rules.list_numbers[level]
        basis = f"list number {block.number}." + (INDENTED.format(levels=block.level) if block.level else "")
        el = self.node(parent, level, num, block, how, basis)
        if block.cite == NO_LEAD_IN:
            self.fragment.no_lead_in.add(tree.attr(el, "id"))
        if block.extra_number and index + 1 < len(ids.LEVELS) and ids.LEVELS[index + 1] in self.rules.list_numbers:
            inner = ids.LEVELS[index + 1]
            inner_num = str(block.extra_number) if inner == "subsection" else ids.letter_for(block.extra_number, inner)
            el = self.node(el, inner, inner_num, block,
                           "inferred", f"the second list number in '{block.number}. {block.extra_number}.'")
        elif block.extra_number:
            self.flog.damage(block.first_line, f"list number {block.extra_number}. nested deeper than an item",
                             "kept as a paragraph with its number")
            block.text = f"{block.extra_number}. {block.text}"
        # "1. Gedekte uitkomst" followed by its text: the number stands for a section with a heading.
        if level == "section" and is_heading_like(block.text, max_length=160):
            self.heading(el, block)
        else:
            self.paragraph(el, block)

    def _group_as_subsections(self, group: list[Block]) -> bool:
        """Several unnumbered paragraphs in one block under a section heading: its subsections 1, 2, …

        (16C: "Voor een niet-overtredende partij …" / "Voor een overtredende partij …" /
        "… C2 hierboven …"). Only where the rules say so (a wiki export, where each paragraph is one line).
        """
        if not self.rules.paragraphs_are_subsections or len(group) < 2 or any(b.kind != "para" for b in group):
            return False
        sec = self.context
        if sec.tag != "section" or any(c.tag == "subsection" for c in tree.child_nodes(sec)):
            return False
        for n, block in enumerate(group, 1):
            sub = self.node(sec, "subsection", str(n), block, "inferred",
                            f"paragraph {n} of {len(group)} standing together under the section heading")
            self.paragraph(sub, block)
        self.context = sec
        return True


class _Numbers:
    """The structural children of one parent by number, for node(): whether a number is there already and
    the first sibling of a level numbered after one, each in constant time, where a look through every
    child was quadratic in a long list. Every child a builder adds comes through add()."""

    def __init__(self, parent: Element) -> None:
        self.parent = parent
        self.by_number: dict[str, Element] = {}
        self.keys: dict[str, list[ids.SortKey]] = {}  # level -> its children's keys, in number order
        self.children: dict[str, list[Element]] = {}  # level -> its children, in the same order
        for c in tree.child_nodes(parent):
            self.by_number.setdefault(tree.attr(c, "num"), c)
            self.keys.setdefault(c.tag, []).append(ids.sort_key(tree.attr(c, "num"), c.tag))
            self.children.setdefault(c.tag, []).append(c)
        for level in self.keys:
            pairs = sorted(zip(self.keys[level], range(len(self.keys[level]))))
            self.children[level] = [self.children[level][i] for _, i in pairs]
            self.keys[level] = [key for key, _ in pairs]

    def child(self, num: str) -> Element | None:
        """The first child numbered `num`, at any level (tree.find_child)."""
        return self.by_number.get(num)

    def after(self, level: str, num: str) -> Element | None:
        """The first child at `level` numbered after `num`, or None."""
        keys = self.keys.get(level, [])
        at = bisect.bisect_right(keys, ids.sort_key(num, level))
        return self.children[level][at] if at < len(keys) else None

    def add(self, level: str, num: str, node_id: str) -> Element:
        """A new child numbered `num` at `level`, in number order among its siblings (tree.add_child)."""
        el = tree.add_child(self.parent, level, num, node_id) if self.after(level, num) is not None \
            else tree.append_child(self.parent, level, num, node_id)
        key = ids.sort_key(num, level)
        keys, children = self.keys.setdefault(level, []), self.children.setdefault(level, [])
        at = bisect.bisect_right(keys, key)
        keys.insert(at, key)
        children.insert(at, el)
        self.by_number.setdefault(num, el)
        return el


class _Derailed(Exception):
    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


class _AnchorBlock:
    """The page anchor's lines, standing for a block where a node opens at the anchor."""
    def __init__(self, lines: list[int]) -> None:
        self.lines = lines
        self.first_line = lines[0]


def _heading_cite(block: Block) -> str:
    """A lettered heading's cite ("D", "E1"), which every heading but a run-in one has."""
    if block.cite is None:
        raise ValueError(f"the heading at line {block.first_line} has no letter")
    return block.cite


def _list_number(block: Block) -> int:
    """A list block's number as written, which every reader gives it."""
    if block.number is None:
        raise ValueError(f"the list entry at line {block.first_line} has no number")
    return block.number


def _groups(blocks: list[Block]) -> list[list[Block]]:
    """Runs of blocks the source wrote without a blank line between them."""
    groups: list[list[Block]] = []
    for block in blocks:
        if groups and groups[-1][-1].group == block.group:
            groups[-1].append(block)
        else:
            groups.append([block])
    return groups
