"""Cross-references: every citation of the corpus found, resolved, marked up and read back.

As docpipe's find / validate / markup, one job per module:
    grammar   where a citation can stand and what its words cite (two passes; Citation)
    resolve   a citation's targets and each one's status (Resolved); the known-missing list
    asked     the memo's recorders: the corpus as one container's reading asks it
    markup    the stage: <ref to=… status=…> around the citing words (find_references)
    records   the references read back, for the graph, `check` and the register (Reference)
    locate    "file:line" of the citing words in each source
    stage     what the stage asks of a build (CorpusOf)

`refs.find_references`, `refs.references`, `refs.find_citations` … are the names the rest of the code uses.
"""
from .grammar import CITE, PART, Citation, Parts, citation_parts, find_citations
from .locate import find_many_wordings, find_wordings, locate, source_texts
from .markup import CONTAINERS, find_references, mark_container, markups, ref_attributes
from .records import LABEL_TAGS, LabelRef, Reference, label_refs, references
from .resolve import (KINDS, KNOWN_MISSING, MAX_RANGE, STATUSES, Resolved, classify, context_of, covered,
                      load_known_missing, node_order, resolve, resolve_phrase)
from .stage import CorpusOf

__all__ = ["CITE", "CONTAINERS", "KINDS", "KNOWN_MISSING", "LABEL_TAGS", "MAX_RANGE", "PART", "STATUSES",
           "Citation", "CorpusOf", "LabelRef", "Parts", "Reference", "Resolved", "citation_parts", "classify",
           "context_of", "covered", "find_citations", "find_many_wordings", "find_references", "find_wordings",
           "label_refs", "load_known_missing", "locate", "mark_container", "markups", "node_order",
           "ref_attributes", "references", "resolve", "resolve_phrase", "source_texts"]
