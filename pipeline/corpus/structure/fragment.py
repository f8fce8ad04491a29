"""What the structure stage makes of one source: a Fragment (its articles, commentary, definitions,
introduction, and the ledger of every line it used)."""
from dataclasses import dataclass, field

from lxml import etree

from ...core.model import Accounted, Placed
from ...core.tree import Element


@dataclass
class Fragment:
    file: str
    edition: str
    articles: list[Element] = field(default_factory=list)
    commentary: list[Element] = field(default_factory=list)
    definitions: list[Element] = field(default_factory=list)  # <definition> elements, in the order of the source
    introduction: etree._Element | None = None  # the book's <introduction>, where this source holds it
    second_introduction: bool = False  # a second title was read: the paragraphs after it are set aside
    ledger: dict[int, Placed | Accounted] = field(default_factory=dict)  # line -> Placed(node id) or Accounted(reason)
    node_lines: dict[str, set[int]] = field(default_factory=dict)  # node id -> source lines, written out once at the end
    no_lead_in: set[str] = field(default_factory=set)  # node ids the source writes with no text before their list
