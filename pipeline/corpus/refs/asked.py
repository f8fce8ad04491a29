"""The memo's recorders: the corpus as one container's reading asks it, every answer kept.

A container's mark-up (markup.py) is kept in this process's memo only with the answers the corpus gave
its reading: whether each ID asked is in the corpus, whether it is known missing, whether one node stands
below another. A later build reuses the mark-up only where its corpus answers the same (Markup.holds).
A reading that reads the corpus whole (iterates it) cannot be compared: its mark-up is not kept.
"""
from collections.abc import Collection, Iterator, Mapping


class _Asked(Collection[str]):
    """A set of IDs as the reading of one container asks it: each answer kept in `answers` (whether the set
    is empty under NONEMPTY)."""

    def __init__(self, ids: Collection[str], answers: dict[object, bool], corpus: "AskedCorpus") -> None:
        self.ids, self.answers, self.corpus = ids, answers, corpus

    def __contains__(self, node_id: object) -> bool:
        answer = self.answers.get(node_id)
        if answer is None:
            answer = self.answers[node_id] = node_id in self.ids
        return answer

    def __bool__(self) -> bool:  # (resolve() asks whether there is an index at all)
        answer = self.answers.get(NONEMPTY)
        if answer is None:
            answer = self.answers[NONEMPTY] = bool(self.ids)
        return answer

    def __iter__(self) -> Iterator[str]:
        self.corpus.whole = True
        return iter(self.ids)

    def __len__(self) -> int:
        self.corpus.whole = True
        return len(self.ids)


# The key of the answer to "is the set empty": no ID (an ID holds no control character).
NONEMPTY = "\x00nonempty"


def answer_of(ids: Collection[str], question: object) -> bool:
    return bool(ids) if question == NONEMPTY else question in ids


class _AskedOrder(Mapping[str, int]):
    """The order of the corpus's nodes as the reading of one container asks it: whether a node is in it, and
    whether one stands below another (stands_below), never a position (which every node above moves)."""

    def __init__(self, order: Mapping[str, int], corpus: "AskedCorpus") -> None:
        self.order, self.corpus = order, corpus

    def __contains__(self, node_id: object) -> bool:
        answer = self.corpus.in_order.get(node_id)
        if answer is None:
            answer = self.corpus.in_order[node_id] = node_id in self.order
        return answer

    def below(self, target: str, node_id: str) -> bool:
        answer = self.corpus.below[(target, node_id)] = self.order[target] > self.order[node_id]
        return answer

    def __getitem__(self, node_id: str) -> int:
        self.corpus.whole = True
        return self.order[node_id]

    def __iter__(self) -> Iterator[str]:
        self.corpus.whole = True
        return iter(self.order)

    def __len__(self) -> int:
        self.corpus.whole = True
        return len(self.order)


class AskedCorpus:
    """The corpus's IDs, the known-missing list and the nodes' order as one container's reading asks them,
    every answer kept (Markup.holds compares them with another build's)."""

    def __init__(self, index: Collection[str], known: Collection[str], order: Mapping[str, int]) -> None:
        self.ids: dict[object, bool] = {}
        self.missing: dict[object, bool] = {}
        self.in_order: dict[object, bool] = {}
        self.below: dict[tuple[str, str], bool] = {}
        self.whole = False  # read whole: the answers cannot be compared, the mark-up is not kept
        self.index = _Asked(index, self.ids, self)
        self.known = _Asked(known, self.missing, self)
        self.order = _AskedOrder(order, self)

    def answers(self) -> "Answers | None":
        """The answers given (as the memo keeps them: Markup), or None where the corpus was read whole."""
        if self.whole:
            return None
        return (tuple(self.ids.items()), tuple(self.missing.items()), tuple(self.in_order.items()),
                tuple(self.below.items()))


# The answers a reading was given: whether each ID asked is in the corpus, whether each is known missing,
# whether each is in the order of the nodes, whether one node stands below another.
Answers = tuple[tuple[tuple[object, bool], ...], tuple[tuple[object, bool], ...], tuple[tuple[object, bool], ...],
                tuple[tuple[tuple[str, str], bool], ...]]
# The answers of a reading that asked nothing (no text run cites anything).
NO_QUESTIONS: Answers = ((), (), (), ())


def stands_below(order: Mapping[str, int], target: str, node_id: str) -> bool:
    """Whether `target` stands below `node_id` in the corpus (both in `order`)."""
    if isinstance(order, _AskedOrder):
        return order.below(target, node_id)
    return order[target] > order[node_id]
